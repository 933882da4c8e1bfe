"use client";

import { useCallback } from "react";
import { useSWRConfig } from "swr";
import { getJson, sendJson } from "@/lib/client/api";
import { parentForEdit, pathAbove, pathThroughQuestion } from "@/lib/client/branches";
import { shownConversation, shownSessionId, type TurnStart } from "@/lib/client/conversation-store";
import type { TurnBody, TurnResult } from "@/lib/client/turn-stream";
import type { ChatMessageView, ConversationPage } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { useChat, useShown } from "./chat-store";
import { memoryKey } from "./use-memory";
import { useComposerProblem } from "./use-send";
import { useRevalidateSessions } from "./use-sessions";
import { useTurn } from "./use-turn";

let tempIds = 0;
const tempId = () => `temp-branch-${++tempIds}`;

const placeholder = (seq: number): ChatMessageView => ({
  id: tempId(),
  seq,
  role: "assistant",
  text: "",
  status: "streaming",
  createdAt: new Date().toISOString(),
});

/**
 * Versions of messages: edit a question (a new question under the same parent), regenerate an answer (a new answer
 * to the same question), switch between versions (PATCH activeLeafId), and show the branch that holds a given
 * message. The list always shows one path; each of these replaces it from the point that changed, and once a new
 * turn is over the path is read again from the server, so every version count is the server's.
 */
export function useBranches() {
  const { store, maxInputChars } = useChat();
  const t = useT("chat");
  const errorText = useErrorText();
  const composerProblem = useComposerProblem();
  const notSent = errorText({ code: "not_sent" });
  const turn = useTurn();
  const switching = useShown((c) => c.switching);
  const revalidateSessions = useRevalidateSessions();
  const { mutate } = useSWRConfig();

  /** The conversation on screen, as it is now (async steps below resolve after renders that changed it). */
  const current = useCallback(() => {
    const state = store.getState();
    return { sessionId: shownSessionId(state), ...shownConversation(state) };
  }, [store]);

  /** Reads the active path again from the server (after a new version was written). */
  const reload = useCallback(
    async (owner: string) => {
      const page = await getJson<ConversationPage>(`/api/sessions/${owner}`).catch(() => null);
      if (page) store.dispatch({ type: "branchShown", key: owner, page });
      return page;
    },
    [store],
  );

  /** Streams a new version's turn; on anything but acceptance the path before it comes back. */
  const runVersion = useCallback(
    async (
      owner: string,
      body: TurnBody,
      start: TurnStart,
      userTempId?: string,
    ): Promise<TurnResult["kind"]> => {
      const result = await turn.run(owner, body, start, { userTempId });
      revalidateSessions();
      if (result.kind === "accepted" || result.kind === "stopped") {
        // Stopped before the server answered: it may have taken the turn just before. Its path decides.
        await reload(owner);
      } else {
        const message = result.kind === "rejected" ? errorText(result.error) : notSent;
        store.dispatch({ type: "errorShown", key: owner, message });
      }
      return result.kind;
    },
    [turn, revalidateSessions, reload, errorText, notSent, store],
  );

  /**
   * Sends `content` as a new version of the question `message`. Resolves true once the server took it; false
   * when it was not sent (the reason is shown; the caller gives the text back to the editor).
   */
  const edit = useCallback(
    async (message: ChatMessageView, content: string): Promise<boolean> => {
      const { sessionId, messages, hasMore, turn: running, switching: busy } = current();
      const text = content.trim();
      if (!sessionId || running || busy) return false;
      const showError = (error: string | null) =>
        store.dispatch({ type: "errorShown", key: sessionId, message: error });
      const problem = composerProblem(content, maxInputChars);
      if (problem) {
        showError(problem);
        return false;
      }
      const parentId = parentForEdit(messages, message, hasMore);
      if (!pathAbove(messages, message.id) || parentId === undefined) {
        showError(t("versions.unknownParent"));
        return false;
      }
      const seq = (messages.at(-1)?.seq ?? 0) + 1;
      const question: ChatMessageView = {
        id: tempId(),
        seq,
        role: "user",
        text,
        status: "complete",
        createdAt: new Date().toISOString(),
        parentId,
      };
      const start: TurnStart = { kind: "edit", of: message.id, question, answer: placeholder(seq + 1) };
      const kind = await runVersion(sessionId, { content: text, parentId }, start, question.id);
      if (kind !== "stopped") return kind === "accepted";
      // Stopped before the server answered: taken if the path read again holds the new question.
      const known = new Set(messages.map((m) => m.id));
      return current().messages.some((m) => m.role === "user" && m.text === text && !known.has(m.id));
    },
    [current, store, composerProblem, maxInputChars, runVersion, t],
  );

  /** Asks for a new answer to the question `answer` answers; the old answer stays as another version. */
  const regenerate = useCallback(
    async (answer: ChatMessageView, model?: string): Promise<void> => {
      const { sessionId, messages, turn: running, switching: busy } = current();
      if (!sessionId || running || busy || !pathThroughQuestion(messages, answer.id)) return;
      const start: TurnStart = {
        kind: "regenerate",
        of: answer.id,
        answer: placeholder((messages.at(-1)?.seq ?? 0) + 1),
      };
      await runVersion(sessionId, { regenerate: answer.id, ...(model ? { model } : {}) }, start);
    },
    [current, runVersion],
  );

  /**
   * Makes the branch through `messageId` the active one (its newest leaf below it) and shows it. Resolves whether
   * it did; a refusal (an answer still being written, a message that is gone) is shown unless `quiet`.
   */
  const showBranch = useCallback(
    async (messageId: string, { quiet = false }: { quiet?: boolean } = {}): Promise<boolean> => {
      const { sessionId, turn: running } = current();
      if (!sessionId || running) return false;
      store.dispatch({ type: "switchStarted", key: sessionId });
      try {
        const page = await sendJson<ConversationPage>(`/api/sessions/${sessionId}`, "PATCH", {
          activeLeafId: messageId,
        });
        store.dispatch({ type: "branchShown", key: sessionId, page });
        // The path changed without a turn: the memory that depends on it is read again.
        void mutate(memoryKey(sessionId));
        return true;
      } catch (e) {
        if (!quiet)
          store.dispatch({
            type: "errorShown",
            key: sessionId,
            message: t("versions.switchFailed", { reason: errorText(e) }),
          });
        return false;
      } finally {
        store.dispatch({ type: "switchEnded", key: sessionId });
      }
    },
    [current, store, mutate, t, errorText],
  );

  return { edit, regenerate, showBranch, switching };
}
