import { describe, expect, it } from "vitest";
import {
  actionOfEvent,
  type ChatAction,
  type ChatState,
  chatReducer,
  emptyConversation,
  initialChatState,
  keyOf,
  mergePage,
  NEW_CHAT,
  shownConversation,
  shownSessionId,
} from "./conversation-store";
import { createStore } from "./store";
import type { ChatMessageView } from "./types";

const at = "2026-01-01T00:00:00.000Z";
const msg = (id: string, seq: number, role: ChatMessageView["role"], text = id): ChatMessageView => ({
  id,
  seq,
  role,
  text,
  status: "complete",
  createdAt: at,
});
const q1 = msg("q1", 1, "user");
const a1 = msg("a1", 2, "assistant");
const q2 = msg("q2", 3, "user");
const a2 = msg("a2", 4, "assistant");

const S = "s1";
const open = (messages = [q1, a1], hasMore = false) =>
  initialChatState({ sessionId: S, title: "T", messages, hasMore });
const run = (state: ChatState, ...actions: ChatAction[]) => actions.reduce(chatReducer, state);
const conv = (state: ChatState, key = S) => state.conversations[key] ?? expect.fail(`no conversation ${key}`);
const ids = (state: ChatState, key = S) => conv(state, key).messages.map((m) => m.id);

const tq = { ...msg("temp-1", 3, "user", "hello") };
const ta: ChatMessageView = { ...msg("temp-2", 4, "assistant", ""), status: "streaming" };
const ask: ChatAction = { type: "turnStarted", key: S, start: { kind: "ask", question: tq, answer: ta } };
const meta = (q: string, a: string, qSeq = 3): ChatAction => ({
  type: "turnAccepted",
  key: S,
  userTempId: "temp-1",
  userMessage: { id: q, seq: qSeq, parentId: "a1", createdAt: at },
  assistantMessage: { id: a, seq: qSeq + 1, parentId: q, createdAt: "2026-01-02T00:00:00.000Z" },
});

describe("initial state and selectors", () => {
  it("opens a stored conversation under its id and a new chat under NEW_CHAT", () => {
    const s = open();
    expect(s.shown).toBe(S);
    expect(shownSessionId(s)).toBe(S);
    expect(conv(s)).toMatchObject({ title: "T", hasMore: false, turn: null, draft: "", error: null });
    const fresh = initialChatState({ sessionId: null, messages: [], hasMore: false });
    expect(fresh.shown).toBe(NEW_CHAT);
    expect(shownSessionId(fresh)).toBeNull();
    expect(keyOf(null)).toBe(NEW_CHAT);
    expect(keyOf("x")).toBe("x");
  });

  it("shows an empty conversation for a key without an entry, and ignores actions for it", () => {
    const s = { ...open(), shown: "other" };
    expect(shownConversation(s).messages).toEqual([]);
    expect(chatReducer(s, { type: "errorShown", key: "other", message: "x" })).toBe(s);
  });

  it("returns the same state when an action changes nothing", () => {
    const s = open();
    expect(chatReducer(s, { type: "delta", key: S, text: "x" })).toBe(s);
    expect(chatReducer(s, { type: "turnEnded", key: S, accepted: false })).toBe(s);
  });
});

describe("a question's turn", () => {
  it("appends the question and a streaming placeholder, clears the error and remembers the path before", () => {
    const s = run(open(), { type: "errorShown", key: S, message: "old" }, ask);
    expect(ids(s)).toEqual(["q1", "a1", "temp-1", "temp-2"]);
    expect(conv(s).error).toBeNull();
    expect(conv(s).turn).toEqual({ answerId: "temp-2", before: [q1, a1], steps: [] });
  });

  it("does not start a second turn while one runs", () => {
    const s = run(open(), ask);
    const again: ChatAction = {
      type: "turnStarted",
      key: S,
      start: { kind: "ask", question: { ...tq, id: "temp-9" }, answer: { ...ta, id: "temp-10" } },
    };
    expect(chatReducer(s, again)).toBe(s);
  });

  it("takes the server's ids, seqs, parents and the answer's createdAt on turnAccepted", () => {
    const s = run(open(), ask, meta("q2", "a2", 7));
    expect(conv(s).messages.slice(2)).toEqual([
      { ...tq, id: "q2", seq: 7, parentId: "a1" },
      { ...ta, id: "a2", seq: 8, parentId: "q2", createdAt: "2026-01-02T00:00:00.000Z" },
    ]);
    expect(conv(s).turn).toEqual({ answerId: "a2", before: null, steps: [] });
  });

  it("writes deltas into the answer, then done sets its status and turnEnded keeps it", () => {
    const s = run(
      open(),
      ask,
      meta("q2", "a2"),
      { type: "delta", key: S, text: "Hel" },
      { type: "delta", key: S, text: "lo" },
      { type: "done", key: S, status: "complete" },
      { type: "turnEnded", key: S, accepted: true },
    );
    expect(conv(s).messages.at(-1)).toMatchObject({ id: "a2", text: "Hello", status: "complete" });
    expect(conv(s).turn).toBeNull();
    expect(ids(s)).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("done puts what the answer used beyond its window on the answer", () => {
    const memoryUsed = {
      recalled: [
        {
          sessionId: S,
          messageId: "q0",
          seq: 1,
          role: "user" as const,
          createdAt: at,
          score: 0.7,
          preview: "my cat is Miso",
        },
      ],
      files: [],
      facts: [],
      summary: null,
    };
    const s = run(open(), ask, meta("q2", "a2"), { type: "done", key: S, status: "complete", memoryUsed });
    expect(conv(s).messages.at(-1)).toMatchObject({ id: "a2", status: "complete", memoryUsed });
    const windowOnly = run(open(), ask, meta("q2", "a2"), {
      type: "done",
      key: S,
      status: "complete",
      memoryUsed: null,
    });
    expect(conv(windowOnly).messages.at(-1)?.memoryUsed).toBeNull();
  });

  it("done names the model that wrote the answer and its tokens (a stopped one records none)", () => {
    const words = (e: { message: string }) => e.message;
    const meta2 = { model: "m1", modelName: "Model one", promptTokens: 120, completionTokens: 45 };
    const written = actionOfEvent(
      S,
      {
        type: "done",
        status: "complete",
        promptTokens: 120,
        completionTokens: 45,
        model: "m1",
        modelName: "Model one",
      },
      words,
    );
    expect(written).toEqual({ type: "done", key: S, status: "complete", meta: meta2 });
    const s = run(open(), ask, meta("q2", "a2"), written);
    expect(conv(s).messages.at(-1)).toMatchObject({ id: "a2", status: "complete", ...meta2 });
    const stopped = actionOfEvent(
      S,
      { type: "done", status: "interrupted", promptTokens: 3, completionTokens: 1, model: "m1" },
      words,
    );
    expect(stopped).toEqual({
      type: "done",
      key: S,
      status: "interrupted",
      meta: { model: "m1", promptTokens: null, completionTokens: null },
    });
    // A resumed answer's end names only the id: the name the page gave the row stays.
    const named = open([q1, { ...a1, status: "streaming", model: "m1", modelName: "Model one" }]);
    const followed = run(
      named,
      { type: "turnStarted", key: S, start: { kind: "follow", of: "a1" } },
      stopped,
    );
    expect(conv(followed).messages.at(-1)).toMatchObject({ model: "m1", modelName: "Model one" });
  });

  it("a failed answer carries its error", () => {
    const s = run(open(), ask, meta("q2", "a2"), { type: "done", key: S, status: "failed", error: "boom" });
    expect(conv(s).messages.at(-1)).toMatchObject({ status: "failed", error: "boom" });
  });

  it("puts the path back when the server did not take the message", () => {
    const s = run(open(), ask, { type: "turnEnded", key: S, accepted: false });
    expect(conv(s).messages).toEqual([q1, a1]);
    expect(conv(s).turn).toBeNull();
  });

  it("keeps the stored messages when a turn that was accepted ends unaccepted (nothing to put back)", () => {
    const s = run(open(), ask, meta("q2", "a2"), { type: "turnEnded", key: S, accepted: false });
    expect(ids(s)).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("tool steps: the text before a call moves out of the answer, results fill the step in", () => {
    const s = run(
      open(),
      ask,
      meta("q2", "a2"),
      { type: "delta", key: S, text: "Let me look" },
      { type: "toolStep", key: S, step: { id: "c1", name: "remember", arguments: "{}" } },
      { type: "toolStep", key: S, step: { id: "c2", name: "forget", arguments: "{}" } },
      { type: "toolResult", key: S, id: "c1", ok: true, result: '{"ok":1}' },
      { type: "delta", key: S, text: "Done." },
    );
    const answer = conv(s).messages.at(-1);
    expect(answer?.text).toBe("Done.");
    expect(answer?.steps).toEqual([
      { id: "c1", name: "remember", arguments: "{}", ok: true, result: '{"ok":1}' },
      { id: "c2", name: "forget", arguments: "{}" },
    ]);
  });

  it("a turn stopped during a call drops the step that got no result (it was not stored)", () => {
    const s = run(
      open(),
      ask,
      meta("q2", "a2"),
      { type: "toolStep", key: S, step: { id: "c1", name: "weather__forecast", arguments: "{}" } },
      { type: "done", key: S, status: "interrupted" },
    );
    const answer = conv(s).messages.at(-1);
    expect(answer?.status).toBe("interrupted");
    expect(answer?.steps).toEqual([]);
  });

  it("events of a turn go to its own conversation, not to the one on screen", () => {
    const s = run(open(), ask, { type: "newChatShown", draft: "" }, { type: "delta", key: S, text: "late" });
    expect(s.shown).toBe(NEW_CHAT);
    expect(conv(s).messages.at(-1)?.text).toBe("late");
    expect(conv(s, NEW_CHAT).messages).toEqual([]);
  });
});

describe("versions", () => {
  const path = [q1, a1, q2, a2];

  it("an edit cuts the path above the question and streams the new one", () => {
    const q = { ...msg("temp-b1", 5, "user", "edited"), parentId: "a1" };
    const a = { ...ta, id: "temp-b2", seq: 6 };
    const s = run(open(path), {
      type: "turnStarted",
      key: S,
      start: { kind: "edit", of: "q2", question: q, answer: a },
    });
    expect(ids(s)).toEqual(["q1", "a1", "temp-b1", "temp-b2"]);
    expect(conv(s).turn?.before).toEqual(path);
    expect(ids(run(s, { type: "turnEnded", key: S, accepted: false }))).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("an edit of a message not shown does not start", () => {
    const s = open(path);
    const start = { kind: "edit" as const, of: "nope", question: tq, answer: ta };
    expect(chatReducer(s, { type: "turnStarted", key: S, start })).toBe(s);
  });

  it("a regenerate keeps the path through its question and streams a new answer", () => {
    const a = { ...ta, id: "temp-b3", seq: 5 };
    const s = run(open(path), {
      type: "turnStarted",
      key: S,
      start: { kind: "regenerate", of: "a2", answer: a },
    });
    expect(ids(s)).toEqual(["q1", "a1", "q2", "temp-b3"]);
    expect(conv(s).turn?.answerId).toBe("temp-b3");
  });

  it("a retry streams into the failed answer in place and puts it back as it was when refused", () => {
    const failed = { ...a2, text: "half", status: "failed" as const, error: "lost" };
    const s = run(open([q1, a1, q2, failed]), {
      type: "turnStarted",
      key: S,
      start: { kind: "retry", of: "a2" },
    });
    expect(conv(s).messages.at(-1)).toMatchObject({
      id: "a2",
      text: "",
      status: "streaming",
      error: undefined,
    });
    const back = run(s, { type: "turnEnded", key: S, accepted: false });
    expect(conv(back).messages.at(-1)).toEqual(failed);
  });

  it("following an answer written elsewhere replays it from its start into the same message", () => {
    const writing = { ...a2, text: "Once up", status: "streaming" as const };
    const s = run(
      open([q1, a1, q2, writing]),
      { type: "turnStarted", key: S, start: { kind: "follow", of: "a2" } },
      { type: "delta", key: S, text: "Once upon" },
      { type: "delta", key: S, text: " a time." },
    );
    expect(conv(s).messages.at(-1)).toMatchObject({
      id: "a2",
      text: "Once upon a time.",
      status: "streaming",
    });
    const ended = run(
      s,
      { type: "done", key: S, status: "complete" },
      { type: "turnEnded", key: S, accepted: true },
    );
    expect(conv(ended).messages.at(-1)).toMatchObject({ text: "Once upon a time.", status: "complete" });
    expect(conv(ended).turn).toBeNull();
    const lost = run(s, { type: "turnEnded", key: S, accepted: false });
    expect(conv(lost).messages.at(-1)).toEqual(writing);
  });

  it("branchShown joins the page under the loaded path from its first message; switching flags the switch", () => {
    const other = { ...msg("q2b", 5, "user"), parentId: "a1" };
    const s = run(
      open(path, true),
      { type: "switchStarted", key: S },
      { type: "branchShown", key: S, page: { messages: [a1, other], hasMore: true } },
    );
    expect(conv(s).switching).toBe(true);
    expect(ids(s)).toEqual(["q1", "a1", "q2b"]);
    expect(conv(s).hasMore).toBe(true);
    expect(conv(run(s, { type: "switchEnded", key: S })).switching).toBe(false);
  });

  it("branchShown with a page whose start is not loaded replaces the path and takes its hasMore", () => {
    const s = run(open(path, true), {
      type: "branchShown",
      key: S,
      page: { messages: [msg("far", 40, "user")], hasMore: false },
    });
    expect(ids(s)).toEqual(["far"]);
    expect(conv(s).hasMore).toBe(false);
  });

  it("pathLoaded replaces the messages as the server has them", () => {
    const s = run(open(), { type: "pathLoaded", key: S, page: { messages: [q1, a1, q2] } });
    expect(ids(s)).toEqual(["q1", "a1", "q2"]);
  });
});

describe("older pages and following", () => {
  it("olderLoaded puts the page above the path and takes its hasMore", () => {
    const s = run(open([q2, a2], true), { type: "olderRequested", key: S });
    expect(conv(s).loadingOlder).toBe(true);
    const loaded = run(s, { type: "olderLoaded", key: S, page: { messages: [q1, a1], hasMore: false } });
    expect(ids(loaded)).toEqual(["q1", "a1", "q2", "a2"]);
    expect(conv(loaded)).toMatchObject({ hasMore: false, loadingOlder: false });
  });

  it("olderFailed stops loading and shows why", () => {
    const s = run(
      open([q2], true),
      { type: "olderRequested", key: S },
      { type: "olderFailed", key: S, error: "x" },
    );
    expect(conv(s)).toMatchObject({ loadingOlder: false, error: "x", hasMore: true });
  });

  it("pageFollowed takes the server's copy by seq and adds new messages in seq order", () => {
    const streaming = { ...a1, text: "par", status: "streaming" as const };
    const s = run(open([q1, streaming]), {
      type: "pageFollowed",
      key: S,
      page: { messages: [{ ...a1, text: "partial" }, q2], hasMore: false },
    });
    expect(conv(s).messages).toEqual([q1, { ...a1, text: "partial" }, q2]);
    expect(mergePage([q2, q1], { messages: [], hasMore: false })).toEqual([q1, q2]);
  });
});

describe("a new chat", () => {
  const fresh = () => initialChatState({ sessionId: null, messages: [], hasMore: false });

  it("conversationCreated moves the new chat's entry (draft, error) under the session id with its title", () => {
    const s = run(
      fresh(),
      { type: "draftChanged", key: NEW_CHAT, text: "typed" },
      { type: "conversationCreated", sessionId: "s9", title: "Hello" },
    );
    expect(s.shown).toBe("s9");
    expect(conv(s, "s9")).toMatchObject({ title: "Hello", draft: "typed" });
    expect(s.conversations[NEW_CHAT]).toBeUndefined();
  });

  it("conversationDiscarded goes back to an empty new chat that keeps the reason", () => {
    const s = run(
      fresh(),
      { type: "conversationCreated", sessionId: "s9", title: "Hello" },
      { type: "errorShown", key: "s9", message: "too long" },
      { type: "conversationDiscarded", sessionId: "s9" },
    );
    expect(s.shown).toBe(NEW_CHAT);
    expect(s.conversations.s9).toBeUndefined();
    expect(conv(s, NEW_CHAT)).toEqual({ ...emptyConversation(), error: "too long" });
  });

  it("newChatShown shows an empty new chat with its saved draft; other conversations stay", () => {
    const s = run(
      open(),
      { type: "editChanged", key: S, editing: { id: "q1", text: "x" } },
      { type: "newChatShown", draft: "saved" },
    );
    expect(s.shown).toBe(NEW_CHAT);
    expect(conv(s, NEW_CHAT)).toEqual(emptyConversation("saved"));
    expect(conv(s).editing).toEqual({ id: "q1", text: "x" });
  });

  it("titleChanged, draftChanged and editChanged set what they name", () => {
    const s = run(
      open(),
      { type: "titleChanged", key: S, title: "New" },
      { type: "draftChanged", key: S, text: "d" },
      { type: "editChanged", key: S, editing: { id: "q1", text: "e" } },
    );
    expect(conv(s)).toMatchObject({ title: "New", draft: "d", editing: { id: "q1", text: "e" } });
  });
});

describe("actionOfEvent", () => {
  const errorText = (e: { code: string; message: string }) => `[${e.code}] ${e.message}`;

  it("names every TurnEvent as the action it causes", () => {
    expect(actionOfEvent(S, { type: "delta", text: "x" }, errorText)).toEqual({
      type: "delta",
      key: S,
      text: "x",
    });
    expect(actionOfEvent(S, { type: "tool_call", id: "c", name: "n", arguments: "{}" }, errorText)).toEqual({
      type: "toolStep",
      key: S,
      step: { id: "c", name: "n", arguments: "{}" },
    });
    expect(
      actionOfEvent(S, { type: "tool_result", id: "c", name: "n", ok: false, result: "r" }, errorText),
    ).toEqual({
      type: "toolResult",
      key: S,
      id: "c",
      ok: false,
      result: "r",
    });
    expect(
      actionOfEvent(
        S,
        { type: "done", status: "interrupted", promptTokens: 3, completionTokens: 0 },
        errorText,
      ),
    ).toEqual({
      type: "done",
      key: S,
      status: "interrupted",
    });
    const memoryUsed = {
      recalled: [],
      files: [],
      facts: [{ id: "f", sessionId: S, messageId: "m" }],
      summary: null,
    };
    expect(
      actionOfEvent(
        S,
        { type: "done", status: "complete", promptTokens: 3, completionTokens: 1, memoryUsed },
        errorText,
      ),
    ).toEqual({ type: "done", key: S, status: "complete", memoryUsed });
    expect(actionOfEvent(S, { type: "error", code: "model_error", message: "down" }, errorText)).toEqual({
      type: "done",
      key: S,
      status: "failed",
      error: "[model_error] down",
    });
    const userMessage = { id: "q", seq: 1, parentId: null, createdAt: at };
    const assistantMessage = { id: "a", seq: 2, parentId: "q", createdAt: at };
    expect(
      actionOfEvent(
        S,
        { type: "meta", userMessage, assistantMessage, model: "m", offline: true },
        errorText,
        "t1",
      ),
    ).toEqual({ type: "turnAccepted", key: S, userTempId: "t1", userMessage, assistantMessage });
  });
});

describe("createStore", () => {
  it("notifies subscribers only when the state changes, and stops after unsubscribe", () => {
    const store = createStore(chatReducer, open());
    const seen: string[] = [];
    const off = store.subscribe(() => seen.push(conv(store.getState()).draft));
    store.dispatch({ type: "draftChanged", key: S, text: "a" });
    store.dispatch({ type: "delta", key: S, text: "no turn: nothing changes" });
    off();
    store.dispatch({ type: "draftChanged", key: S, text: "b" });
    expect(seen).toEqual(["a"]);
    expect(conv(store.getState()).draft).toBe("b");
  });
});
