"use client";

import { useCallback } from "react";
import { useSWRConfig } from "swr";
import useSWRInfinite, { unstable_serialize } from "swr/infinite";
import { getJson } from "@/lib/client/api";
import type { SessionSummary } from "@/lib/client/types";

interface SessionsPage {
  sessions: SessionSummary[];
  nextCursor: string | null;
}

/** The key of each page of GET /api/sessions: the first page, then one per `nextCursor` (keyset paging). */
function pageKey(index: number, previous: SessionsPage | null): string | null {
  if (index === 0) return "/api/sessions";
  if (!previous?.nextCursor) return null;
  return `/api/sessions?cursor=${encodeURIComponent(previous.nextCursor)}`;
}

/** The signed-in user's conversations, newest first, a page at a time. */
export function useSessions() {
  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite(pageKey, getJson<SessionsPage>, {
    // A conversation moves to the top when it gets a message; revalidating only the first page could show it
    // twice (its old row on a later page) or drop one that moved.
    revalidateAll: true,
  });
  const seen = new Set<string>();
  const sessions = data
    ?.flatMap((page) => page.sessions)
    .filter((s) => !seen.has(s.id) && Boolean(seen.add(s.id)));
  const hasMore = Boolean(data?.at(-1)?.nextCursor);
  const loadingMore = size > 0 && data !== undefined && data[size - 1] === undefined;
  return {
    sessions,
    pages: data,
    error: error as Error | undefined,
    isLoading,
    hasMore,
    loadingMore,
    loadMore: () => setSize(size + 1),
    mutate,
  };
}

/** Revalidates the sidebar's list from anywhere (a new chat, a finished turn): no event bus, one cache. */
export function useRevalidateSessions() {
  const { mutate } = useSWRConfig();
  return useCallback(() => {
    void mutate(unstable_serialize(pageKey));
  }, [mutate]);
}
