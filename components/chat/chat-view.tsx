"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useErrorText, useT } from "@/lib/i18n/client";
import { fetchOlderMessages } from "./api";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { focusComposer, focusIsFree } from "./focus";
import { MessageList } from "./message-list";
import { setTabTitle } from "./tab-title";
import { type ChatMessageView, isTemporary, type ModelInfo } from "./types";
import { useConversationAddress } from "./use-address";
import { useDraft } from "./use-draft";
import { mergePage, useFollowAnswer } from "./use-follow-answer";
import { useMemory } from "./use-memory";
import { useMessageAnchor } from "./use-message-anchor";
import { useSend } from "./use-send";
import { useRevalidateSessions } from "./use-sessions";
import { useTurn } from "./use-turn";

export function ChatView({
  title,
  sessionId: initialSessionId,
  initialMessages,
  initialHasMore,
  modelInfo,
  maxInputChars,
}: {
  /** The conversation's title (the page's heading, for screen readers); none on a new chat. */
  title?: string;
  sessionId: string | null;
  initialMessages: ChatMessageView[];
  initialHasMore: boolean;
  modelInfo: ModelInfo;
  /** CHAT_MAX_INPUT_CHARS, from the server's configuration. */
  maxInputChars: number;
}) {
  const t = useT("chat");
  const errorText = useErrorText();
  const [sessionId, setSessionId] = useState(initialSessionId);
  const [messages, setMessages] = useState(initialMessages);
  const [hasMore, setHasMore] = useState(initialHasMore);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const draft = useDraft(sessionId);
  const turn = useTurn(setMessages);
  const revalidateSessions = useRevalidateSessions();
  const memory = useMemory(sessionId);
  const { revalidate: revalidateMemory } = memory;
  // Memory moves with every answer: read it again once a turn is over.
  useEffect(() => {
    if (!turn.streaming) revalidateMemory();
  }, [turn.streaming, revalidateMemory]);
  // Each answer hands focus back to the composer, unless the user has moved it somewhere on purpose meanwhile.
  const wasStreaming = useRef(false);
  useEffect(() => {
    if (wasStreaming.current && !turn.streaming && focusIsFree()) focusComposer();
    wasStreaming.current = turn.streaming;
  }, [turn.streaming]);

  const claimAddress = useConversationAddress({
    isNewChatPage: initialSessionId === null,
    onNewChat: () => {
      turn.stop();
      setSessionId(null);
      setMessages([]);
      setHasMore(false);
      setError(null);
      draft.reload(null);
      setTabTitle(t("newChat"));
      requestAnimationFrame(focusComposer);
    },
  });

  const send = useSend({
    sessionId,
    setSessionId,
    messages,
    setMessages,
    draft,
    turn,
    setError,
    maxInputChars,
    claimAddress,
    onSessionsChanged: revalidateSessions,
  });

  async function retry(message: ChatMessageView) {
    if (!sessionId || turn.streaming) return;
    setError(null);
    setError(await turn.retry(sessionId, message));
    revalidateSessions();
  }

  async function loadOlder() {
    const first = messages[0];
    if (!sessionId || !first) return;
    setLoadingOlder(true);
    try {
      const page = await fetchOlderMessages<ChatMessageView>(
        `/api/sessions/${sessionId}?before=${first.seq}`,
      );
      setMessages((prev) => [...page.messages, ...prev]);
      setHasMore(page.hasMore);
    } catch (e) {
      setError(t("loadOlderFailed", { reason: errorText(e) }));
    } finally {
      setLoadingOlder(false);
    }
  }

  // /c/:id?message=<id> (a fact's source on /memory, the context inspector): open at that message.
  const anchor = useMessageAnchor({ messages, hasMore, loadingOlder, loadOlder: () => void loadOlder() });
  const tMemory = useT("memory");

  const last = messages.at(-1);
  // Opened while an answer was being written elsewhere (a reload mid-answer, another tab): this view is not
  // attached to that stream, so it follows the stored answer until the server says it has ended.
  const follow = useFollowAnswer({
    sessionId,
    following: !turn.streaming && last?.status === "streaming" && !isTemporary(last),
    onPage: useCallback((page) => setMessages((prev) => mergePage(prev, page)), []),
  });

  const retryable =
    !turn.streaming &&
    last?.role === "assistant" &&
    (last.status === "failed" || last.status === "interrupted")
      ? last.id
      : null;
  const notice =
    error ??
    (anchor.missing ? tMemory("anchor.missing") : null) ??
    (follow.error ? t("lostTouch", { reason: errorText(follow.error) }) : null);

  return (
    <div className="flex h-full min-w-0 flex-1 flex-col">
      <h1 className="sr-only">{sessionId ? (title ?? t("conversation")) : t("newChat")}</h1>
      <ChatHeader modelInfo={modelInfo} sessionId={sessionId} streaming={turn.streaming} />
      <MessageList
        messages={messages}
        sessionId={sessionId}
        hasMore={hasMore}
        loadingOlder={loadingOlder}
        onLoadOlder={() => void loadOlder()}
        retryable={retryable}
        onRetry={(m) => void retry(m)}
        clearedThroughSeq={memory.memory?.clearedThroughSeq ?? 0}
        onExample={(text) => {
          draft.setText(text);
          requestAnimationFrame(focusComposer);
        }}
      />
      {notice && (
        <p
          role="alert"
          data-testid="chat-error"
          className="mx-auto mb-2 max-w-3xl rounded bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {notice}
        </p>
      )}
      <Composer
        value={draft.text}
        onChange={(value) => {
          draft.setText(value);
          if (error) setError(null);
        }}
        onSend={(text, attachments) => send(text, attachments)}
        onStop={turn.stop}
        streaming={turn.streaming}
        maxInputChars={maxInputChars}
      />
    </div>
  );
}
