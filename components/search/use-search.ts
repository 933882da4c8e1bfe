"use client";

import { useEffect, useState } from "react";
import useSWRInfinite from "swr/infinite";
import { request } from "@/lib/client/api";
import type { SearchPage, SearchResult } from "@/lib/db/search";
import { NEXT_CURSOR_HEADER } from "@/lib/http-query";

// The search dialog's data (docs/decisions/009-client-data-layer.md: reads go through SWR and `request`): the
// query is debounced, each page is one GET /api/search keyed by the query and the previous page's cursor.

export type { SearchResult };

/** One page of GET /api/search: the results array, and the next page's cursor from its header. */
async function getPage(url: string): Promise<SearchPage> {
  const res = await request(url);
  return { results: (await res.json()) as SearchResult[], nextCursor: res.headers.get(NEXT_CURSOR_HEADER) };
}

const SEARCH_DEBOUNCE_MS = 200;
const MAX_QUERY_LENGTH = 200;

/** `value`, once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function useSearch(input: string) {
  const q = useDebounced(input.trim().slice(0, MAX_QUERY_LENGTH), SEARCH_DEBOUNCE_MS);
  const getKey = (index: number, previous: SearchPage | null): string | null => {
    if (!q) return null;
    const base = `/api/search?q=${encodeURIComponent(q)}`;
    if (index === 0) return base;
    if (!previous?.nextCursor) return null;
    return `${base}&cursor=${encodeURIComponent(previous.nextCursor)}`;
  };
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite(getKey, getPage, {
    revalidateOnFocus: false,
    revalidateFirstPage: false,
  });
  // Pages are ranked anew per request: a message that moved up meanwhile is shown once.
  const seen = new Set<string>();
  const results = q
    ? (data?.flatMap((page) => page.results) ?? []).filter(
        (r) => !seen.has(r.messageId) && Boolean(seen.add(r.messageId)),
      )
    : [];
  return {
    q,
    /** The input is ahead of the last query sent. */
    pending: input.trim().slice(0, MAX_QUERY_LENGTH) !== q,
    results,
    error: error as Error | undefined,
    isLoading: Boolean(q) && isLoading,
    hasMore: Boolean(q && data?.at(-1)?.nextCursor),
    loadingMore: isValidating && size > 0 && data !== undefined && data[size - 1] === undefined,
    loadMore: () => setSize(size + 1),
    retry: () => mutate(),
  };
}
