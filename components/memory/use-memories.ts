"use client";

import useSWRInfinite from "swr/infinite";
import { getJson } from "@/lib/client/api";
import type { MemoriesPage } from "./types";

/** The keys of the pages of GET /api/memories: the first page, then one per `nextCursor` (keyset paging). */
function pageKey(includeReplaced: boolean) {
  return (index: number, previous: MemoriesPage | null): string | null => {
    const params = new URLSearchParams(includeReplaced ? { include: "superseded" } : {});
    if (index > 0) {
      if (!previous?.nextCursor) return null;
      params.set("cursor", previous.nextCursor);
    }
    const query = params.toString();
    return `/api/memories${query ? `?${query}` : ""}`;
  };
}

/** The signed-in user's long-term facts, most recently changed first, a page at a time. */
export function useMemories(includeReplaced: boolean) {
  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite(
    pageKey(includeReplaced),
    getJson<MemoriesPage>,
    {
      // An edited fact moves to the top; revalidating only the first page could show it twice or drop one.
      revalidateAll: true,
    },
  );
  const seen = new Set<string>();
  const memories = data
    ?.flatMap((page) => page.memories)
    .filter((m) => !seen.has(m.id) && Boolean(seen.add(m.id)));
  const hasMore = Boolean(data?.at(-1)?.nextCursor);
  const loadingMore = size > 0 && data !== undefined && data[size - 1] === undefined;
  return {
    memories,
    error: error as Error | undefined,
    isLoading,
    hasMore,
    loadingMore,
    loadMore: () => setSize(size + 1),
    mutate,
  };
}
