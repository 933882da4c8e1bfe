"use client";

import { useSyncExternalStore } from "react";
import { deleteSessionQuietly } from "./api";

// Temporary chats in this tab: whether the next new chat is to be one, and which conversations shown here are.
// Kept in sessionStorage so a reload of the tab still knows; the server keeps the truth (ChatSession.temporary).

const KEY = "recall.temporaryChats";
const NEXT_KEY = "recall.nextChatTemporary";
const listeners = new Set<() => void>();
const pendingDeletes = new Map<string, ReturnType<typeof setTimeout>>();

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {}
  for (const l of listeners) l();
}

const ids = (): string[] => JSON.parse(read(KEY) ?? "[]") as string[];

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the next conversation started in this tab is a temporary chat. */
export const nextChatTemporary = (): boolean => read(NEXT_KEY) === "1";

export const setNextChatTemporary = (on: boolean) => write(NEXT_KEY, on ? "1" : null);

export function useNextChatTemporary(): boolean {
  return useSyncExternalStore(subscribe, nextChatTemporary, () => false);
}

/** Records that `sessionId` was started as a temporary chat (the next new chat is an ordinary one again). */
export function markTemporaryChat(sessionId: string): void {
  write(KEY, JSON.stringify([...ids().filter((id) => id !== sessionId), sessionId]));
  write(NEXT_KEY, null);
}

export function useIsTemporaryChat(sessionId: string | null): boolean {
  return useSyncExternalStore(
    subscribe,
    () => sessionId !== null && ids().includes(sessionId),
    () => false,
  );
}

/**
 * The temporary chat is being left: deleted on the next tick unless it is shown again meanwhile (React mounting a
 * view twice in development, a view replaced by the same conversation's).
 */
export function leaveTemporaryChat(sessionId: string, { now = false }: { now?: boolean } = {}): void {
  const go = () => {
    pendingDeletes.delete(sessionId);
    write(KEY, JSON.stringify(ids().filter((id) => id !== sessionId)));
    void deleteSessionQuietly(sessionId);
  };
  if (now) go();
  else pendingDeletes.set(sessionId, setTimeout(go, 0));
}

/** The temporary chat is shown (again): a deletion scheduled by leaving it is called off. */
export function stayInTemporaryChat(sessionId: string): void {
  const timer = pendingDeletes.get(sessionId);
  if (timer !== undefined) clearTimeout(timer);
  pendingDeletes.delete(sessionId);
}
