"use client";

import { useCallback } from "react";
import { TemporaryChatBanner } from "@/components/share/temporary-chat";
import { keyOf } from "@/lib/client/conversation-store";
import { isTemporary, type ModelInfo } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ChatHeader } from "./chat-header";
import { useChat, useShown, useShownSessionId } from "./chat-store";
import { Composer } from "./composer";
import { focusComposer } from "./focus";
import { MessageList } from "./message-list";
import { NewChatProject } from "./new-chat-project";
import { useAfterTurn } from "./use-after-turn";
import { useAttachAnswer } from "./use-attach-answer";
import { useBranches } from "./use-branches";
import { useDraft } from "./use-draft";
import { useFollowAnswer } from "./use-follow-answer";
import { useMemory } from "./use-memory";
import { useMessageAnchor } from "./use-message-anchor";
import { useLoadOlder } from "./use-older";
import { useSend } from "./use-send";
import { useRevalidateSessions } from "./use-sessions";
import { useTurn } from "./use-turn";
import { useVersionSwitch } from "./use-version-switch";

/** The conversation on screen: its heading, messages, notice and composer. */
export function ChatScreen({ modelInfo }: { modelInfo: ModelInfo }) {
  const t = useT("chat");
  const tMemory = useT("memory");
  const errorText = useErrorText();
  const { store, maxInputChars } = useChat();
  const sessionId = useShownSessionId();
  const key = keyOf(sessionId);
  const messages = useShown((c) => c.messages);
  const hasMore = useShown((c) => c.hasMore);
  const loadingOlder = useShown((c) => c.loadingOlder);
  const error = useShown((c) => c.error);
  const title = useShown((c) => c.title);
  const importedAt = useShown((c) => c.importedAt ?? null);
  const editing = useShown((c) => c.editing);
  const draft = useDraft();
  const turn = useTurn();
  const send = useSend();
  const branches = useBranches();
  const loadOlder = useLoadOlder();
  const revalidateSessions = useRevalidateSessions();
  const memory = useMemory(sessionId);
  const busy = turn.streaming || branches.switching;
  const switchVersion = useVersionSwitch(branches, busy);
  const setEditing = (next: typeof editing) => store.dispatch({ type: "editChanged", key, editing: next });
  const setError = (message: string | null) => store.dispatch({ type: "errorShown", key, message });
  useAfterTurn(turn.streaming, memory.revalidate);

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

  const last = messages.at(-1);
  // An answer written elsewhere (a reload mid-answer, another tab): its live stream, else its stored page, polled.
  const elsewhere = !turn.streaming && last?.status === "streaming" && !isTemporary(last) ? last.id : null;
  const attachFailed = useAttachAnswer({ sessionId, answerId: elsewhere, follow: turn.follow });
  const follow = useFollowAnswer({
    sessionId,
    following: elsewhere !== null && attachFailed,
    onPage: useCallback(
      (page) => sessionId && store.dispatch({ type: "pageFollowed", key: sessionId, page }),
      [store, sessionId],
    ),
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
      <ChatHeader
        modelInfo={modelInfo}
        sessionId={sessionId}
        importedAt={importedAt}
        streaming={turn.streaming}
      />
      <TemporaryChatBanner sessionId={sessionId} />
      {sessionId === null && <NewChatProject />}
      <MessageList
        messages={messages}
        sessionId={sessionId}
        hasMore={hasMore}
        loadingOlder={loadingOlder}
        onLoadOlder={() => void loadOlder()}
        retryable={retryable}
        onRetry={async (m) => {
          if (!sessionId || turn.streaming) return;
          setError(null);
          setError(await turn.retry(sessionId, m));
          revalidateSessions();
        }}
        clearedThroughSeq={memory.memory?.clearedThroughSeq ?? 0}
        onExample={(text) => {
          draft.setText(text);
          requestAnimationFrame(focusComposer);
        }}
        busy={busy}
        editing={editing}
        onEditChange={setEditing}
        onEditSend={async (m) => {
          if (!editing || editing.id !== m.id || busy) return;
          setEditing(null);
          // Not sent: the edit comes back, as it was, with the reason shown.
          if (!(await branches.edit(m, editing.text))) setEditing({ id: m.id, text: editing.text });
        }}
        onRegenerate={(m, model) => {
          setEditing(null);
          void branches.regenerate(m, model);
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
