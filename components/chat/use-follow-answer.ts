"use client";

import useSWR from "swr";
import { getJson } from "@/lib/client/api";
import type { ConversationPage } from "@/lib/client/types";

const FOLLOW_INTERVAL_MS = 1000;
const FOLLOW_LIMIT = 20;

const stillWriting = (page: ConversationPage | undefined) => page?.messages.at(-1)?.status === "streaming";

/**
 * Follows an answer that is being written elsewhere (a reload mid-answer, another tab): while `following`, the
 * newest page of the conversation is fetched every second and handed to `onPage`. It stops as soon as the server
 * reports the last message as anything but `streaming` — complete, failed, or `interrupted` once the writer's
 * lease has expired.
 */
export function useFollowAnswer({
  sessionId,
  following,
  onPage,
}: {
  sessionId: string | null;
  following: boolean;
  onPage: (page: ConversationPage) => void;
}) {
  const { error } = useSWR(
    following && sessionId ? `/api/sessions/${sessionId}?limit=${FOLLOW_LIMIT}` : null,
    getJson<ConversationPage>,
    {
      refreshInterval: (page) => (page && !stillWriting(page) ? 0 : FOLLOW_INTERVAL_MS),
      // Every tick must reach the server; cached pages from an earlier follow are never applied (onSuccess only).
      dedupingInterval: 0,
      revalidateOnFocus: false,
      onSuccess: onPage,
    },
  );
  return { error: following ? (error as Error | undefined) : undefined };
}
