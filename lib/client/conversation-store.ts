// The chat screen's state, one entry per conversation (a new chat is the entry NEW_CHAT until the server names it),
// changed only by the named actions below. The reducer is pure: hooks do the requests and dispatch what happened.

import type { MemoryUsed } from "@/lib/context/memory-used";
import { joinPath, pathAbove, pathThroughQuestion } from "./branches";
import type { TurnEvent } from "./turn-stream";
import type { ChatMessageView, ConversationPage, MessageStatus, ToolStepView } from "./types";

export const NEW_CHAT = "new";

/** The conversation key of a session id (null: the new-chat page). */
export const keyOf = (sessionId: string | null): string => sessionId ?? NEW_CHAT;

/** The question being edited and its text as typed so far. */
export interface EditState {
  id: string;
  text: string;
}

/** A turn this view is streaming: the answer it writes into, and what to put back if the server does not take it. */
export interface RunningTurn {
  answerId: string;
  /** The path before the turn; null once the server has stored the message (nothing is put back then). */
  before: ChatMessageView[] | null;
  steps: ToolStepView[];
}

export interface Conversation {
  /** One path of the message tree, oldest loaded first. */
  messages: ChatMessageView[];
  hasMore: boolean;
  loadingOlder: boolean;
  title?: string;
  /** When an import made it (null or absent: started here). */
  importedAt?: string | null;
  /** What the composer holds (saved to storage by the hooks, not here). */
  draft: string;
  error: string | null;
  editing: EditState | null;
  turn: RunningTurn | null;
  /** A version switch is on its way to the server. */
  switching: boolean;
}

export interface ChatState {
  /** The conversation on screen. */
  shown: string;
  conversations: Record<string, Conversation>;
}

/** How a turn starts: what the path shows while it runs. Temporary ids until `turnAccepted`. */
export type TurnStart =
  | { kind: "ask"; question: ChatMessageView; answer: ChatMessageView }
  | { kind: "edit"; of: string; question: ChatMessageView; answer: ChatMessageView }
  | { kind: "regenerate"; of: string; answer: ChatMessageView }
  | { kind: "retry"; of: string }
  /** An answer written elsewhere (a reload, another tab or device): its stream replays it from the start. */
  | { kind: "follow"; of: string };

/** The model that wrote an answer and the tokens recorded for it. */
export type AnswerMeta = Pick<ChatMessageView, "model" | "modelName" | "promptTokens" | "completionTokens">;

type Stored = { id: string; seq: number; parentId?: string | null; createdAt: string };

export type ChatAction =
  | { type: "newChatShown"; draft: string }
  | { type: "conversationCreated"; sessionId: string; title: string }
  | { type: "conversationDiscarded"; sessionId: string }
  | { type: "titleChanged"; key: string; title: string }
  | { type: "draftChanged"; key: string; text: string }
  | { type: "errorShown"; key: string; message: string | null }
  | { type: "editChanged"; key: string; editing: EditState | null }
  | { type: "turnStarted"; key: string; start: TurnStart }
  | { type: "turnAccepted"; key: string; userTempId?: string; userMessage: Stored; assistantMessage: Stored }
  | { type: "delta"; key: string; text: string }
  | { type: "toolStep"; key: string; step: ToolStepView }
  | { type: "toolResult"; key: string; id: string; ok: boolean; result: string }
  | {
      type: "done";
      key: string;
      status: MessageStatus;
      error?: string;
      memoryUsed?: MemoryUsed | null;
      /** Who wrote the answer and its tokens, as the answer row records them. */
      meta?: AnswerMeta;
    }
  | { type: "turnEnded"; key: string; accepted: boolean }
  | { type: "switchStarted"; key: string }
  | { type: "switchEnded"; key: string }
  | { type: "branchShown"; key: string; page: ConversationPage }
  | { type: "olderRequested"; key: string }
  | { type: "olderLoaded"; key: string; page: Pick<ConversationPage, "messages" | "hasMore"> }
  | { type: "olderFailed"; key: string; error: string }
  | { type: "pageFollowed"; key: string; page: ConversationPage }
  | { type: "pathLoaded"; key: string; page: Pick<ConversationPage, "messages"> };

export const emptyConversation = (draft = ""): Conversation => ({
  messages: [],
  hasMore: false,
  loadingOlder: false,
  draft,
  error: null,
  editing: null,
  turn: null,
  switching: false,
});

export function initialChatState({
  sessionId,
  title,
  importedAt = null,
  messages,
  hasMore,
}: {
  sessionId: string | null;
  title?: string;
  importedAt?: string | null;
  messages: ChatMessageView[];
  hasMore: boolean;
}): ChatState {
  const key = keyOf(sessionId);
  return {
    shown: key,
    conversations: { [key]: { ...emptyConversation(), messages, hasMore, title, importedAt } },
  };
}

/** The conversation on screen (an empty one before its entry exists). */
export const shownConversation = (state: ChatState): Conversation =>
  state.conversations[state.shown] ?? EMPTY;
const EMPTY = emptyConversation();

/** The session id on screen (null: a new chat). */
export const shownSessionId = (state: ChatState): string | null =>
  state.shown === NEW_CHAT ? null : state.shown;

/** A TurnEvent as the action it causes on conversation `key`; `errorText` words a failed answer. */
export function actionOfEvent(
  key: string,
  event: TurnEvent,
  errorText: (error: { code: string; message: string }) => string,
  userTempId?: string,
): ChatAction {
  switch (event.type) {
    case "meta":
      return {
        type: "turnAccepted",
        key,
        userTempId,
        userMessage: event.userMessage,
        assistantMessage: event.assistantMessage,
      };
    case "delta":
      return { type: "delta", key, text: event.text };
    case "tool_call":
      return { type: "toolStep", key, step: { id: event.id, name: event.name, arguments: event.arguments } };
    case "tool_result":
      return { type: "toolResult", key, id: event.id, ok: event.ok, result: event.result };
    case "done": {
      const meta = metaOfDone(event);
      return {
        type: "done",
        key,
        status: event.status,
        ...(event.memoryUsed !== undefined ? { memoryUsed: event.memoryUsed } : {}),
        ...(meta ? { meta } : {}),
      };
    }
    case "error":
      return { type: "done", key, status: "failed", error: errorText(event) };
  }
}

/**
 * What a `done` event says about who wrote the answer (nothing when it names no model: a resumed answer's, whose
 * row on the page already does). Tokens only for a complete answer: the row records none for a stopped one.
 */
function metaOfDone(event: Extract<TurnEvent, { type: "done" }>): AnswerMeta | null {
  if (event.model === undefined) return null;
  const complete = event.status === "complete";
  return {
    model: event.model,
    ...(event.modelName !== undefined ? { modelName: event.modelName } : {}),
    promptTokens: complete ? event.promptTokens : null,
    completionTokens: complete ? event.completionTokens : null,
  };
}

/** A message's parent as the server's `meta` event names it (absent from older servers). */
function parentOf(message: Stored): { parentId?: string | null } {
  return typeof message.parentId === "string" || message.parentId === null
    ? { parentId: message.parentId }
    : {};
}

function patchMessage(messages: ChatMessageView[], id: string, change: Partial<ChatMessageView>) {
  return messages.map((m) => (m.id === id ? { ...m, ...change } : m));
}

/** The path a turn shows while it runs, or null when the message it starts from is not shown. */
function pathOfTurn(messages: ChatMessageView[], start: TurnStart): ChatMessageView[] | null {
  switch (start.kind) {
    case "ask":
      return [...messages, start.question, start.answer];
    case "edit": {
      const above = pathAbove(messages, start.of);
      return above && [...above, start.question, start.answer];
    }
    case "regenerate": {
      const kept = pathThroughQuestion(messages, start.of);
      return kept && [...kept, start.answer];
    }
    case "retry":
    case "follow":
      if (!messages.some((m) => m.id === start.of)) return null;
      return patchMessage(messages, start.of, { text: "", status: "streaming", error: undefined });
  }
}

const answerOf = (start: TurnStart) =>
  start.kind === "retry" || start.kind === "follow" ? start.of : start.answer.id;

function updateConversation(c: Conversation, action: ChatAction): Conversation {
  switch (action.type) {
    case "titleChanged":
      return { ...c, title: action.title };
    case "draftChanged":
      return { ...c, draft: action.text };
    case "errorShown":
      return { ...c, error: action.message };
    case "editChanged":
      return { ...c, editing: action.editing };
    case "turnStarted": {
      const path = pathOfTurn(c.messages, action.start);
      if (!path || c.turn) return c;
      return {
        ...c,
        messages: path,
        error: null,
        turn: { answerId: answerOf(action.start), before: c.messages, steps: [] },
      };
    }
    case "turnAccepted": {
      if (!c.turn) return c;
      const { userTempId, userMessage: q, assistantMessage: a } = action;
      const placeholder = c.turn.answerId;
      const messages = c.messages.map((m) => {
        if (userTempId && m.id === userTempId) return { ...m, id: q.id, seq: q.seq, ...parentOf(q) };
        if (m.id === placeholder)
          return { ...m, id: a.id, seq: a.seq, createdAt: a.createdAt, ...parentOf(a) };
        return m;
      });
      return { ...c, messages, turn: { ...c.turn, answerId: a.id, before: null } };
    }
    case "delta": {
      if (!c.turn) return c;
      const id = c.turn.answerId;
      return {
        ...c,
        messages: c.messages.map((m) => (m.id === id ? { ...m, text: m.text + action.text } : m)),
      };
    }
    case "toolStep": {
      // What was written before the call belongs to the step; the answer starts again after it.
      if (!c.turn) return c;
      const steps = [...c.turn.steps, action.step];
      return {
        ...c,
        messages: patchMessage(c.messages, c.turn.answerId, { text: "", steps }),
        turn: { ...c.turn, steps },
      };
    }
    case "toolResult": {
      if (!c.turn) return c;
      const steps = c.turn.steps.map((s) =>
        s.id === action.id ? { ...s, ok: action.ok, result: action.result } : s,
      );
      return {
        ...c,
        messages: patchMessage(c.messages, c.turn.answerId, { steps }),
        turn: { ...c.turn, steps },
      };
    }
    case "done": {
      if (!c.turn) return c;
      // A step stopped before its result was never stored (a stopped turn writes none): it is not shown either.
      const steps = c.turn.steps.filter((s) => s.ok !== undefined);
      const change: Partial<ChatMessageView> = { status: action.status };
      if (action.error !== undefined) change.error = action.error;
      if (action.memoryUsed !== undefined) change.memoryUsed = action.memoryUsed;
      if (action.meta) Object.assign(change, action.meta);
      if (steps.length !== c.turn.steps.length) change.steps = steps;
      return { ...c, messages: patchMessage(c.messages, c.turn.answerId, change) };
    }
    case "turnEnded":
      if (!c.turn) return c;
      return { ...c, turn: null, messages: !action.accepted && c.turn.before ? c.turn.before : c.messages };
    case "switchStarted":
      return { ...c, switching: true };
    case "switchEnded":
      return { ...c, switching: false };
    case "branchShown":
      return { ...c, ...joinPath(c.messages, c.hasMore, action.page) };
    case "olderRequested":
      return { ...c, loadingOlder: true };
    case "olderLoaded":
      return {
        ...c,
        loadingOlder: false,
        messages: [...action.page.messages, ...c.messages],
        hasMore: action.page.hasMore,
      };
    case "olderFailed":
      return { ...c, loadingOlder: false, error: action.error };
    case "pageFollowed":
      return { ...c, messages: mergePage(c.messages, action.page) };
    case "pathLoaded":
      return { ...c, messages: action.page.messages };
    default:
      return c;
  }
}

/** Takes the server's copy of every message in `page` and adds any this view has not seen yet. */
export function mergePage(local: ChatMessageView[], page: ConversationPage): ChatMessageView[] {
  const fresh = new Map(page.messages.map((m) => [m.seq, m]));
  const kept = local.filter((m) => !fresh.has(m.seq));
  return [...kept, ...page.messages].sort((a, b) => a.seq - b.seq);
}

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case "newChatShown":
      return {
        shown: NEW_CHAT,
        conversations: { ...state.conversations, [NEW_CHAT]: emptyConversation(action.draft) },
      };
    case "conversationCreated": {
      // The new chat's entry (its draft, its error) becomes the conversation's; the new-chat page starts empty.
      const { [NEW_CHAT]: fresh = emptyConversation(), ...rest } = state.conversations;
      return {
        shown: state.shown === NEW_CHAT ? action.sessionId : state.shown,
        conversations: { ...rest, [action.sessionId]: { ...fresh, title: action.title } },
      };
    }
    case "conversationDiscarded": {
      const { [action.sessionId]: gone, ...rest } = state.conversations;
      return {
        shown: state.shown === action.sessionId ? NEW_CHAT : state.shown,
        conversations: { ...rest, [NEW_CHAT]: { ...emptyConversation(), error: gone?.error ?? null } },
      };
    }
    default: {
      const current = state.conversations[action.key];
      if (!current) return state;
      const next = updateConversation(current, action);
      return next === current
        ? state
        : { ...state, conversations: { ...state.conversations, [action.key]: next } };
    }
  }
}
