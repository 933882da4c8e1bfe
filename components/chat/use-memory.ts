"use client";

import { useCallback } from "react";
import useSWR from "swr";
import { getJson, sendJson } from "@/lib/client/api";
import type { MemoryChange, MemoryStateView } from "@/lib/client/types";

export const memoryKey = (sessionId: string) => `/api/sessions/${sessionId}/memory`;

/**
 * A conversation's memory (GET /api/sessions/:id/memory) and its two changes: settings (PATCH) and clear (POST
 * …/clear). Each change puts the server's answer in the cache; a failure throws the server's RequestError.
 * `revalidate` after a turn: memory moves with every answer (and a summary may follow it).
 */
export function useMemory(sessionId: string | null) {
  const key = sessionId ? memoryKey(sessionId) : null;
  const { data, error, isLoading, mutate } = useSWR(key, getJson<MemoryStateView>, {
    revalidateOnFocus: true,
  });

  const update = useCallback(
    async (change: MemoryChange) => {
      if (!key) return;
      const next = await sendJson<MemoryStateView>(key, "PATCH", change);
      await mutate(next, { revalidate: false });
    },
    [key, mutate],
  );

  const clear = useCallback(async () => {
    if (!key) return;
    const next = await sendJson<MemoryStateView>(`${key}/clear`, "POST", {});
    await mutate(next, { revalidate: false });
  }, [key, mutate]);

  const revalidate = useCallback(() => {
    if (key) void mutate();
  }, [key, mutate]);

  return { memory: data, error: error as Error | undefined, isLoading, update, clear, revalidate };
}
