"use client";

import { type Dispatch, type SetStateAction, useCallback, useRef, useState } from "react";
import { useErrorText, useT } from "@/lib/i18n/client";
import { getJson, sendJson } from "./api";
import { joinPath, parentForEdit, pathAbove, pathThroughQuestion } from "./branches";
import type { ChatMessageView, ConversationPage } from "./types";
import { useComposerProblem } from "./use-send";
import type { TurnResult, useTurn } from "./use-turn";

let tempIds = 0;
const tempId = () => `temp-branch-${++tempIds}`;

/**
 * Versions of messages (issue 13): edit a question (a new question under the same parent), regenerate an answer
 * (a new answer to the same question), switch between versions (PATCH activeLeafId), and show the branch that holds
 * a given message. The list always shows one path; each of these replaces it from the point that changed, and
 * once a new turn is over the path is read again from the server, so every version count is the server's.
 */
export function useBranches({
  sessionId,
  messages,
  setMessages,
  hasMore,
  setHasMore,
  turn,
  setError,
  maxInputChars,
  onSessionsChanged,
  onPathChanged,
}: {
  sessionId: string | null;
  messages: ChatMessageView[];
  setMessages: Dispatch<SetStateAction<ChatMessageView[]>>;
  hasMore: boolean;
  setHasMore: (hasMore: boolean) => void;
  turn: ReturnType<typeof useTurn>;
  setError: (message: string | null) => void;
  maxInputChars: number;
  onSessionsChanged: () => void;
  /** The path changed without a turn (a switch): what depends on it (memory) is read again. */
  onPathChanged: () => void;
}) {
  const t = useT("chat");
  const errorText = useErrorText();
  const composerProblem = useComposerProblem();
  const notSent = errorText({ code: "not_sent" });
  const [switching, setSwitching] = useState(false);
  // The newest path, for the async steps below (a switch resolves after renders that changed `messages`).
  const latest = useRef({ messages, hasMore });
  latest.current = { messages, hasMore };

  /** Shows `page` (the newest page of the active path) in place of the path from its first message down. */
  const show = useCallback(
    (page: ConversationPage) => {
      const joined = joinPath(latest.current.messages, latest.current.hasMore, page);
      latest.current = joined;
      setMessages(joined.messages);
      setHasMore(joined.hasMore);
    },
    [setMessages, setHasMore],
  );

  /** Reads the active path again from the server (after a new version was written). */
  const reload = useCallback(
    async (owner: string) => {
      const page = await getJson<ConversationPage>(`/api/sessions/${owner}`).catch(() => null);
      if (page) show(page);
      return page;
    },
    [show],
  );

  /** Streams a new version's turn; on anything but acceptance the path before it comes back. */
  const runVersion = useCallback(
    async (
      owner: string,
      before: ChatMessageView[],
      run: () => Promise<TurnResult>,
    ): Promise<TurnResult["kind"]> => {
      const result = await run();
      onSessionsChanged();
      if (result.kind === "accepted") {
        await reload(owner);
        return "accepted";
      }
      setMessages(before);
      if (result.kind === "stopped") {
        // Stopped before the server answered: it may have taken the turn just before. Its path decides.
        await reload(owner);
      } else {
        setError(result.kind === "rejected" ? errorText(result.error) : notSent);
      }
      return result.kind;
    },
    [onSessionsChanged, reload, setMessages, setError, errorText, notSent],
  );

  /**
   * Sends `content` as a new version of the question `message`. Resolves true once the server took it; false
   * when it was not sent (the reason is shown; the caller gives the text back to the editor).
   */
  const edit = useCallback(
    async (message: ChatMessageView, content: string): Promise<boolean> => {
      const text = content.trim();
      if (!sessionId || turn.streaming || switching) return false;
      const problem = composerProblem(content, maxInputChars);
      if (problem) {
        setError(problem);
        return false;
      }
      const before = messages;
      const above = pathAbove(before, message.id);
      const parentId = parentForEdit(before, message, hasMore);
      if (!above || parentId === undefined) {
        setError(t("versions.unknownParent"));
        return false;
      }
      setError(null);
      const now = new Date().toISOString();
      const userTempId = tempId();
      const assistantId = tempId();
      const seq = (before.at(-1)?.seq ?? 0) + 1;
      setMessages([
        ...above,
        { id: userTempId, seq, role: "user", text, status: "complete", createdAt: now, parentId },
        { id: assistantId, seq: seq + 1, role: "assistant", text: "", status: "streaming", createdAt: now },
      ]);
      const kind = await runVersion(sessionId, before, () =>
        turn.run(sessionId, { content: text, parentId }, { assistantId, userTempId }),
      );
      if (kind !== "stopped") return kind === "accepted";
      // Stopped before the server answered: taken if the path read again holds the new question.
      const known = new Set(before.map((m) => m.id));
      return latest.current.messages.some((m) => m.role === "user" && m.text === text && !known.has(m.id));
    },
    [
      sessionId,
      turn,
      switching,
      composerProblem,
      maxInputChars,
      messages,
      hasMore,
      setError,
      setMessages,
      runVersion,
      t,
    ],
  );

  /** Asks for a new answer to the question `answer` answers; the old answer stays as another version. */
  const regenerate = useCallback(
    async (answer: ChatMessageView): Promise<void> => {
      if (!sessionId || turn.streaming || switching) return;
      const before = messages;
      const kept = pathThroughQuestion(before, answer.id);
      if (!kept) return;
      setError(null);
      const assistantId = tempId();
      setMessages([
        ...kept,
        {
          id: assistantId,
          seq: (before.at(-1)?.seq ?? 0) + 1,
          role: "assistant",
          text: "",
          status: "streaming",
          createdAt: new Date().toISOString(),
        },
      ]);
      await runVersion(sessionId, before, () =>
        turn.run(sessionId, { regenerate: answer.id }, { assistantId }),
      );
    },
    [sessionId, turn, switching, messages, setError, setMessages, runVersion],
  );

  /**
   * Makes the branch through `messageId` the active one (its newest leaf below it) and shows it. Resolves whether
   * it did; a refusal (an answer still being written, a message that is gone) is shown unless `quiet`.
   */
  const showBranch = useCallback(
    async (messageId: string, { quiet = false }: { quiet?: boolean } = {}): Promise<boolean> => {
      if (!sessionId || turn.streaming) return false;
      setSwitching(true);
      try {
        const page = await sendJson<ConversationPage>(`/api/sessions/${sessionId}`, "PATCH", {
          activeLeafId: messageId,
        });
        show(page);
        onPathChanged();
        return true;
      } catch (e) {
        if (!quiet) setError(t("versions.switchFailed", { reason: errorText(e) }));
        return false;
      } finally {
        setSwitching(false);
      }
    },
    [sessionId, turn.streaming, show, onPathChanged, setError, t, errorText],
  );

  return { edit, regenerate, showBranch, switching };
}
