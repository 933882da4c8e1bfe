"use client";

import { type Dispatch, type SetStateAction, useCallback } from "react";
import { titleFrom } from "@/lib/chat/title";
import { getJson, NOT_SENT, RequestError, sendJson } from "./api";
import { formatCount } from "./format";
import { setTabTitle } from "./tab-title";
import type { ChatMessageView, ConversationPage } from "./types";
import { forgetDraft, storeDraft, type useDraft } from "./use-draft";
import type { TurnResult, useTurn } from "./use-turn";

let tempIds = 0;
const tempId = () => `temp-${++tempIds}`;

/** Why `text` cannot be sent as it is, or null. Mirrors the server's rule (trimmed length). */
export function composerProblem(text: string, maxInputChars: number): string | null {
  const length = text.trim().length;
  if (length === 0) return "Write a message first.";
  if (length > maxInputChars)
    return `This message is ${formatCount(length - maxInputChars)} characters too long — the limit is ${formatCount(maxInputChars)}.`;
  return null;
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
}) {
  return useCallback(
    async (content: string) => {
      const text = content.trim();
      if (!text || turn.streaming) return;
      const problem = composerProblem(content, maxInputChars);
      if (problem) {
        setError(problem);
        return;
      }
      setError(null);
      draft.takeForSending();

      let id = sessionId;
      const created = id === null;
      if (id === null) {
        try {
          const data = await sendJson<{ session: { id: string } }>("/api/sessions", "POST", {
            title: titleFrom(text),
          });
          id = data.session.id;
        } catch (e) {
          draft.giveBack(null, content);
          setError(e instanceof RequestError && e.status > 0 ? e.message : NOT_SENT);
          return;
        }
        // The draft follows the conversation, and the address names it at once, so a reload even during the
        // first answer restores both.
        storeDraft(id, content);
        forgetDraft(null);
        setSessionId(id);
        claimAddress(`/c/${id}`);
        setTabTitle(titleFrom(text));
        onSessionsChanged();
      }
      const owner = id;

      const now = new Date().toISOString();
      const userId = tempId();
      const assistantId = tempId();
      const nextSeq = (messages.at(-1)?.seq ?? 0) + 1;
      setMessages((prev) => [
        ...prev,
        { id: userId, seq: nextSeq, role: "user", text, status: "complete", createdAt: now },
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
        { content: text },
        { assistantId, userTempId: userId, onAccepted: () => forgetDraft(owner) },
      );
      onSessionsChanged();
      if (result.kind === "accepted") return;

      setMessages((prev) => prev.filter((m) => m.id !== userId && m.id !== assistantId));
      if (result.kind === "stopped") {
        // Stopped before the server answered: it may have stored the message just before. Its word decides.
        const page = await getJson<ConversationPage>(`/api/sessions/${owner}`).catch(() => null);
        if (page?.messages.some((m) => m.role === "user" && m.seq >= nextSeq)) {
          setMessages(page.messages);
          forgetDraft(owner);
          return;
        }
        if (!page) {
          draft.giveBack(owner, content);
          return;
        }
      } else {
        setError(result.kind === "rejected" ? result.error.message : NOT_SENT);
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
          setTabTitle("New chat");
          draft.giveBack(null, content);
          onSessionsChanged();
          return;
        }
      }
      draft.giveBack(owner, content);
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
    ],
  );
}
