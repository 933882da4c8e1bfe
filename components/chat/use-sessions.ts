"use client";

import { useCallback } from "react";
import useSWR, { useSWRConfig } from "swr";
import useSWRInfinite, { unstable_serialize } from "swr/infinite";
import { getJson } from "@/lib/client/api";
import type { ProjectView, SessionSummary } from "@/lib/client/types";

interface SessionsPage {
  sessions: SessionSummary[];
  nextCursor: string | null;
}

/** One of the sidebar's lists: a project's conversations or those outside any ("none"), or the archived ones. */
export interface SessionListFilter {
  projectId?: string;
  archived?: boolean;
}

type PageKey = (index: number, previous: SessionsPage | null) => string | null;

function listUrl({ projectId, archived }: SessionListFilter): string {
  const query = new URLSearchParams();
  if (archived) query.set("archived", "true");
  if (projectId) query.set("projectId", projectId);
  const q = query.toString();
  return q ? `/api/sessions?${q}` : "/api/sessions";
}

// One key function per list, kept for the page's life: SWR names an infinite list by its first key, and
// revalidating "every list" means revalidating each list shown so far (its filter mutate skips infinite keys).
const pageKeys = new Map<string, PageKey>();

/** The key of each page of one list of GET /api/sessions: the first page, then one per `nextCursor`. */
function pageKeyOf(filter: SessionListFilter): PageKey {
  const first = listUrl(filter);
  let key = pageKeys.get(first);
  if (!key) {
    key = (index, previous) => {
      if (index === 0) return first;
      if (!previous?.nextCursor) return null;
      return `${first}${first.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(previous.nextCursor)}`;
    };
    pageKeys.set(first, key);
  }
  return key;
}

/** The signed-in user's conversations of one list, pinned first, then newest first, a page at a time. */
export function useSessions(filter: SessionListFilter = {}) {
  const { data, error, isLoading, size, setSize, mutate } = useSWRInfinite(
    pageKeyOf(filter),
    getJson<SessionsPage>,
    {
      // A conversation moves to the top when it gets a message; revalidating only the first page could show it
      // twice (its old row on a later page) or drop one that moved.
      revalidateAll: true,
    },
  );
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

export type SessionsMutate = ReturnType<typeof useSessions>["mutate"];

const PROJECTS = "/api/projects";

/** The user's projects, with their counts (GET /api/projects). */
export function useProjects() {
  const { data, error, isLoading, mutate } = useSWR(PROJECTS, getJson<{ projects: ProjectView[] }>);
  return { projects: data?.projects, error: error as Error | undefined, isLoading, mutate };
}

/**
 * Revalidates every list of the sidebar and the projects' counts from anywhere (a new chat, a finished turn, a
 * move): no event bus, one cache. Resolves once every list has been read again.
 */
export function useRevalidateSessions() {
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    await Promise.allSettled([
      ...[...pageKeys.values()].map((key) => mutate(unstable_serialize(key))),
      mutate(PROJECTS),
    ]);
  }, [mutate]);
}
