"use client";

import { useCallback } from "react";
import type { AttachmentView } from "@/components/attachments/upload-file";
import { titleFrom } from "@/lib/chat/title";
import { getJson, RequestError, sendJson } from "@/lib/client/api";
import { keyOf, shownConversation, shownSessionId } from "@/lib/client/conversation-store";
import { markTemporaryChat, nextChatTemporary } from "@/lib/client/temporary-chats";
import type { ChatMessageView, ConversationPage } from "@/lib/client/types";
import { isTemporary } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { useChat } from "./chat-store";
import { formatCount } from "./format";
import { setTabTitle } from "./tab-title";
import { useAutoTitle } from "./use-auto-title";
import { forgetDraft, storeDraft, useDraft } from "./use-draft";
import { useRevalidateSessions } from "./use-sessions";
import { useTurn } from "./use-turn";

let tempIds = 0;
const tempId = () => `temp-${++tempIds}`;

/** Why `text` cannot be sent as it is, or null. Mirrors the server's rule (trimmed length). */
export function useComposerProblem(): (text: string, maxInputChars: number) => string | null {
  const t = useT("chat");
  return useCallback(
    (text, maxInputChars) => {
      const length = text.trim().length;
      if (length === 0) return t("composer.empty");
      if (length > maxInputChars)
        return t("composer.tooLong", {
          over: formatCount(length - maxInputChars),
          max: formatCount(maxInputChars),
        });
      return null;
    },
    [t],
  );
}

/**
 * Sending a message: a new chat first creates its conversation (and takes its address), then the turn streams.
 * Until the server's `meta` event says the message is stored, its text stays saved as the draft; if it is not
 * stored, it goes back into the composer with the reason, and a conversation created for it is deleted again.
 */
export function useSend() {
  const { store, maxInputChars, claimAddress, projectId } = useChat();
  const t = useT("chat");
  const errorText = useErrorText();
  const composerProblem = useComposerProblem();
  const notSent = errorText({ code: "not_sent" });
  const draft = useDraft();
  const turn = useTurn();
  const revalidateSessions = useRevalidateSessions();
  const watchTitle = useAutoTitle();
  return useCallback(
    // Resolves true once the server stored the message, false when it was not sent (the composer gets it back).
    async (content: string, attachments: AttachmentView[] = []): Promise<boolean> => {
      const state = store.getState();
      const shown = shownConversation(state);
      let id = shownSessionId(state);
      const showError = (message: string | null) =>
        store.dispatch({ type: "errorShown", key: keyOf(id), message });
      const text = content.trim();
      if ((!text && attachments.length === 0) || shown.turn) return false;
      // A message may be only files; text, when there is some, follows the usual rule.
      const problem = text || attachments.length === 0 ? composerProblem(content, maxInputChars) : null;
      const title = titleFrom(text || (attachments[0]?.name ?? ""));
      if (problem) {
        showError(problem);
        return false;
      }
      showError(null);
      draft.takeForSending(id);

      const created = id === null;
      if (id === null) {
        try {
          const temporary = nextChatTemporary();
          const data = await sendJson<{ session: { id: string } }>("/api/sessions", "POST", {
            title,
            ...(temporary ? { temporary } : {}),
            ...(projectId ? { projectId } : {}),
          });
          id = data.session.id;
          if (temporary) markTemporaryChat(id);
        } catch (e) {
          draft.giveBack(null, content);
          showError(e instanceof RequestError && e.status > 0 ? errorText(e) : notSent);
          return false;
        }
        // The draft follows the conversation, and the address names it at once, so a reload even during the
        // first answer restores both.
        storeDraft(id, content);
        forgetDraft(null);
        store.dispatch({ type: "conversationCreated", sessionId: id, title });
        claimAddress(`/c/${id}`);
        setTabTitle(title);
        revalidateSessions();
      }
      const owner = id;
      const messages = store.getState().conversations[owner]?.messages ?? [];
      const first = messages.length === 0;
      // The new question follows the branch this view shows (the server's active leaf unless another tab moved it).
      const leaf = messages.at(-1);
      const parent = leaf && !isTemporary(leaf) ? { parentId: leaf.id } : {};
      const now = new Date().toISOString();
      const nextSeq = (leaf?.seq ?? 0) + 1;
      const question: ChatMessageView = {
        id: tempId(),
        seq: nextSeq,
        role: "user",
        text,
        status: "complete",
        createdAt: now,
        ...(attachments.length ? { parts: { attachments } } : {}),
      };
      const answer: ChatMessageView = {
        id: tempId(),
        seq: nextSeq + 1,
        role: "assistant",
        text: "",
        status: "streaming",
        createdAt: now,
      };
      const result = await turn.run(
        owner,
        {
          content: text,
          ...parent,
          ...(attachments.length ? { attachments: attachments.map((a) => a.id) } : {}),
        },
        { kind: "ask", question, answer },
        { userTempId: question.id, onAccepted: () => forgetDraft(owner) },
      );
      revalidateSessions();
      if (result.kind === "accepted") {
        if (first) watchTitle(owner);
        return true;
      }

      if (result.kind === "stopped") {
        // Stopped before the server answered: it may have stored the message just before. Its word decides.
        const page = await getJson<ConversationPage>(`/api/sessions/${owner}`).catch(() => null);
        if (page?.messages.some((m) => m.role === "user" && m.seq >= nextSeq)) {
          store.dispatch({ type: "pathLoaded", key: owner, page });
          forgetDraft(owner);
          return true;
        }
        if (!page) {
          draft.giveBack(owner, content);
          return false;
        }
      } else {
        showError(result.kind === "rejected" ? errorText(result.error) : notSent);
      }

      // Nothing was stored. A conversation made for this message alone goes away again — unless the server could
      // not be reached, in which case it cannot be told (and the message may yet be there).
      if (created && result.kind !== "unreachable") {
        const deleted = await sendJson(`/api/sessions/${owner}`, "DELETE").then(
          () => true,
          () => false,
        );
        if (deleted) {
          forgetDraft(owner);
          store.dispatch({ type: "conversationDiscarded", sessionId: owner });
          claimAddress("/");
          setTabTitle(t("newChat"));
          draft.giveBack(null, content);
          revalidateSessions();
          return false;
        }
      }
      draft.giveBack(owner, content);
      return false;
    },
    [
      store,
      maxInputChars,
      claimAddress,
      projectId,
      draft,
      turn,
      revalidateSessions,
      watchTitle,
      t,
      errorText,
      composerProblem,
      notSent,
    ],
  );
}
