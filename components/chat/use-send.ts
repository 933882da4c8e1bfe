"use client";

import { type Dispatch, type SetStateAction, useCallback } from "react";
import type { AttachmentView } from "@/components/attachments/upload-file";
import { titleFrom } from "@/lib/chat/title";
import { useErrorText, useT } from "@/lib/i18n/client";
import { getJson, RequestError, sendJson } from "./api";
import { formatCount } from "./format";
import { setTabTitle } from "./tab-title";
import { type ChatMessageView, type ConversationPage, isTemporary } from "./types";
import { forgetDraft, storeDraft, type useDraft } from "./use-draft";
import type { TurnResult, useTurn } from "./use-turn";

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
export function useSend({
  sessionId,
  setSessionId,
  messages,
  setMessages,
  draft,
  turn,
  setError,
  maxInputChars,
  claimAddress,
  onSessionsChanged,
  onTitle,
  onFirstAnswer,
}: {
  sessionId: string | null;
  setSessionId: (id: string | null) => void;
  messages: ChatMessageView[];
  setMessages: Dispatch<SetStateAction<ChatMessageView[]>>;
  draft: ReturnType<typeof useDraft>;
  turn: ReturnType<typeof useTurn>;
  setError: (message: string | null) => void;
  maxInputChars: number;
  claimAddress: (path: string) => void;
  onSessionsChanged: () => void;
  /** A new conversation got its title (from the first message). */
  onTitle?: (title: string) => void;
  /** The conversation's first question was taken: the server names it once the answer is complete. */
  onFirstAnswer?: (sessionId: string) => void;
}) {
  const t = useT("chat");
  const errorText = useErrorText();
  const composerProblem = useComposerProblem();
  const notSent = errorText({ code: "not_sent" });
  return useCallback(
    // Resolves true once the server stored the message, false when it was not sent (the composer gets it back).
    async (content: string, attachments: AttachmentView[] = []): Promise<boolean> => {
      const text = content.trim();
      if ((!text && attachments.length === 0) || turn.streaming) return false;
      // A message may be only files (issue 12); text, when there is some, follows the usual rule.
      const problem = text || attachments.length === 0 ? composerProblem(content, maxInputChars) : null;
      const title = titleFrom(text || (attachments[0]?.name ?? ""));
      if (problem) {
        setError(problem);
        return false;
      }
      setError(null);
      draft.takeForSending();

      let id = sessionId;
      const created = id === null;
      if (id === null) {
        try {
          const data = await sendJson<{ session: { id: string } }>("/api/sessions", "POST", {
            title,
          });
          id = data.session.id;
        } catch (e) {
          draft.giveBack(null, content);
          setError(e instanceof RequestError && e.status > 0 ? errorText(e) : notSent);
          return false;
        }
        // The draft follows the conversation, and the address names it at once, so a reload even during the
        // first answer restores both.
        storeDraft(id, content);
        forgetDraft(null);
        setSessionId(id);
        claimAddress(`/c/${id}`);
        setTabTitle(title);
        onTitle?.(title);
        onSessionsChanged();
      }
      const owner = id;
      const first = messages.length === 0;
      // The new question follows the branch this view shows (the server's active leaf unless another tab moved it).
      const leaf = messages.at(-1);
      const parent = leaf && !isTemporary(leaf) ? { parentId: leaf.id } : {};

      const now = new Date().toISOString();
      const userId = tempId();
      const assistantId = tempId();
      const nextSeq = (messages.at(-1)?.seq ?? 0) + 1;
      setMessages((prev) => [
        ...prev,
        {
          id: userId,
          seq: nextSeq,
          role: "user",
          text,
          status: "complete",
          createdAt: now,
          ...(attachments.length ? { parts: { attachments } } : {}),
        },
        {
          id: assistantId,
          seq: nextSeq + 1,
          role: "assistant",
          text: "",
          status: "streaming",
          createdAt: now,
        },
      ]);
      const result: TurnResult = await turn.run(
        owner,
        {
          content: text,
          ...parent,
          ...(attachments.length ? { attachments: attachments.map((a) => a.id) } : {}),
        },
        { assistantId, userTempId: userId, onAccepted: () => forgetDraft(owner) },
      );
      onSessionsChanged();
      if (result.kind === "accepted") {
        if (first) onFirstAnswer?.(owner);
        return true;
      }

      setMessages((prev) => prev.filter((m) => m.id !== userId && m.id !== assistantId));
      if (result.kind === "stopped") {
        // Stopped before the server answered: it may have stored the message just before. Its word decides.
        const page = await getJson<ConversationPage>(`/api/sessions/${owner}`).catch(() => null);
        if (page?.messages.some((m) => m.role === "user" && m.seq >= nextSeq)) {
          setMessages(page.messages);
          forgetDraft(owner);
          return true;
        }
        if (!page) {
          draft.giveBack(owner, content);
          return false;
        }
      } else {
        setError(result.kind === "rejected" ? errorText(result.error) : notSent);
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
          setSessionId(null);
          claimAddress("/");
          setTabTitle(t("newChat"));
          draft.giveBack(null, content);
          onSessionsChanged();
          return false;
        }
      }
      draft.giveBack(owner, content);
      return false;
    },
    [
      sessionId,
      setSessionId,
      messages,
      setMessages,
      draft,
      turn,
      setError,
      maxInputChars,
      claimAddress,
      onSessionsChanged,
      onTitle,
      onFirstAnswer,
      t,
      errorText,
      composerProblem,
      notSent,
    ],
  );
}
