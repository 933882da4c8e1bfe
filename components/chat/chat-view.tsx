"use client";

import { useRef } from "react";
import type { ChatMessageView, ModelInfo } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { ChatScreen } from "./chat-screen";
import { ChatProvider, useNewChatStore } from "./chat-store";
import { focusComposer } from "./focus";
import { setTabTitle } from "./tab-title";
import { useConversationAddress } from "./use-address";
import { readDraft } from "./use-draft";

/** One chat page: its store (from the server's first page of the conversation) and the screen that shows it. */
export function ChatView({
  title,
  importedAt,
  sessionId,
  initialMessages,
  initialHasMore,
  modelInfo,
  maxInputChars,
  projectId = null,
}: {
  /** The conversation's title (the page's heading, for screen readers); none on a new chat. */
  title?: string;
  /** When an import made the conversation (null: started here): the header says "Imported". */
  importedAt?: string | null;
  sessionId: string | null;
  initialMessages: ChatMessageView[];
  initialHasMore: boolean;
  modelInfo: ModelInfo;
  /** CHAT_MAX_INPUT_CHARS, from the server's configuration. */
  maxInputChars: number;
  /** On a new chat: the project it is started in (null: none). */
  projectId?: string | null;
}) {
  const t = useT("chat");
  const store = useNewChatStore({
    sessionId,
    title,
    importedAt,
    messages: initialMessages,
    hasMore: initialHasMore,
  });
  const abort = useRef<AbortController | null>(null);
  const claimAddress = useConversationAddress({
    isNewChatPage: sessionId === null,
    onNewChat: () => {
      abort.current?.abort();
      store.dispatch({ type: "newChatShown", draft: readDraft(null) });
      setTabTitle(t("newChat"));
      requestAnimationFrame(focusComposer);
    },
  });
  return (
    <ChatProvider value={{ store, abort, maxInputChars, claimAddress, projectId }}>
      <ChatScreen modelInfo={modelInfo} />
    </ChatProvider>
  );
}
