"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useErrorText, useT } from "@/lib/i18n/client";
import { fetchOlderMessages } from "./api";
import { versionId } from "./branches";
import { ChatHeader } from "./chat-header";
import { Composer } from "./composer";
import { focusComposer, focusIsFree } from "./focus";
import type { EditState } from "./message-bubble";
import { MessageList } from "./message-list";
import { setTabTitle } from "./tab-title";
import { type ChatMessageView, isTemporary, type ModelInfo } from "./types";
import { useConversationAddress } from "./use-address";
import { useAutoTitle } from "./use-auto-title";
import { useBranches } from "./use-branches";
import { useDraft } from "./use-draft";
import { mergePage, useFollowAnswer } from "./use-follow-answer";
import { useMemory } from "./use-memory";
import { useMessageAnchor } from "./use-message-anchor";
import { useSend } from "./use-send";
import { useRevalidateSessions } from "./use-sessions";
import { useTurn } from "./use-turn";
import type { VersionStep } from "./version-switcher";

export function ChatView({
  title: initialTitle,
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
  const [title, setTitle] = useState(initialTitle);
  const [editing, setEditing] = useState<EditState | null>(null);
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
      setTitle(undefined);
      setEditing(null);
      draft.reload(null);
      setTabTitle(t("newChat"));
      requestAnimationFrame(focusComposer);
    },
  });

  // After the first answer the server names the conversation in the background; the title is picked up here.
  const watchTitle = useAutoTitle({
    current: () => title,
    onTitle: (next) => {
      setTitle(next);
      setTabTitle(next);
      revalidateSessions();
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
    onTitle: setTitle,
    onFirstAnswer: watchTitle,
  });

  const branches = useBranches({
    sessionId,
    messages,
    setMessages,
    hasMore,
    setHasMore,
    turn,
    setError,
    maxInputChars,
    onSessionsChanged: revalidateSessions,
    onPathChanged: revalidateMemory,
  });
  const busy = turn.streaming || branches.switching;

  // A version switch re-renders the switcher under another message: focus goes back to the arrow that was used
  // (or the other one, at the end of the versions).
  const refocusVersion = useRef<{ key: string; step: VersionStep } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the switched path is on the page
  useEffect(() => {
    const want = refocusVersion.current;
    if (!want || branches.switching) return;
    refocusVersion.current = null;
    const group = document.querySelector(`[data-versions="${CSS.escape(want.key)}"]`);
    const other = want.step === "next" ? "previous" : "next";
    const button =
      group?.querySelector<HTMLButtonElement>(`[data-testid="version-${want.step}"]:not(:disabled)`) ??
      group?.querySelector<HTMLButtonElement>(`[data-testid="version-${other}"]:not(:disabled)`);
    button?.focus();
  }, [messages, branches.switching]);

  async function switchVersion(message: ChatMessageView, step: VersionStep) {
    const target = versionId(message.siblings, step === "next" ? 1 : -1);
    if (!target || !message.siblings || busy) return;
    setEditing(null);
    refocusVersion.current = { key: message.siblings.ids[0] ?? "", step };
    if (!(await branches.showBranch(target))) refocusVersion.current = null;
  }

  async function sendEdit(message: ChatMessageView) {
    if (!editing || editing.id !== message.id || busy) return;
    const text = editing.text;
    setEditing(null);
    // Not sent: the edit comes back, as it was, with the reason shown.
    if (!(await branches.edit(message, text))) setEditing({ id: message.id, text });
  }

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

  const { showBranch } = branches;
  const showAnchorBranch = useCallback((id: string) => showBranch(id, { quiet: true }), [showBranch]);
  // /c/:id?message=<id> (a fact's source on /memory, the context inspector): open at that message.
  const anchor = useMessageAnchor({
    messages,
    hasMore,
    loadingOlder,
    loadOlder: () => void loadOlder(),
    // A search result may point at another branch: that branch is shown first.
    showBranch: showAnchorBranch,
  });
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
        busy={busy}
        editing={editing}
        onEditChange={setEditing}
        onEditSend={(m) => void sendEdit(m)}
        onRegenerate={(m) => {
          setEditing(null);
          void branches.regenerate(m);
        }}
        onVersion={(m, step) => void switchVersion(m, step)}
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
        // A send waits for a version switch to finish: it follows the branch shown.
        onSend={(text, attachments) =>
          branches.switching ? Promise.resolve(false) : send(text, attachments)
        }
        onStop={turn.stop}
        streaming={turn.streaming}
        maxInputChars={maxInputChars}
      />
    </div>
  );
}
