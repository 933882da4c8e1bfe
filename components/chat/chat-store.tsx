"use client";

import { createContext, type ReactNode, useContext, useState, useSyncExternalStore } from "react";
import {
  type ChatAction,
  type ChatState,
  type Conversation,
  chatReducer,
  initialChatState,
  shownConversation,
  shownSessionId,
} from "@/lib/client/conversation-store";
import { createStore, type Store } from "@/lib/client/store";

/** What every hook of one chat screen shares: its store, the running turn's Stop, and the page's settings. */
export interface ChatContextValue {
  store: Store<ChatState, ChatAction>;
  /** The running turn's controller (one turn at a time per screen). */
  abort: { current: AbortController | null };
  /** CHAT_MAX_INPUT_CHARS, from the server's configuration. */
  maxInputChars: number;
  /** Moves the address bar without a navigation (see use-address). */
  claimAddress: (path: string) => void;
  /** The project a new chat on this screen is started in (null: none). */
  projectId: string | null;
}

const ChatContext = createContext<ChatContextValue | null>(null);

/** The store of one chat screen, created once from the page's server data. */
export function useNewChatStore(init: Parameters<typeof initialChatState>[0]): ChatContextValue["store"] {
  const [store] = useState(() => createStore(chatReducer, initialChatState(init)));
  return store;
}

export function ChatProvider({ value, children }: { value: ChatContextValue; children: ReactNode }) {
  return <ChatContext.Provider value={value}>{children}</ChatContext.Provider>;
}

export function useChat(): ChatContextValue {
  const value = useContext(ChatContext);
  if (!value) throw new Error("useChat outside ChatProvider");
  return value;
}

/** Reads a part of the conversation on screen; re-renders when that part changes. */
export function useShown<T>(select: (conversation: Conversation) => T): T {
  const { store } = useChat();
  const read = () => select(shownConversation(store.getState()));
  return useSyncExternalStore(store.subscribe, read, read);
}

/** The session id on screen (null: a new chat). */
export function useShownSessionId(): string | null {
  const { store } = useChat();
  const read = () => shownSessionId(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}
