"use client";

import { useState } from "react";
import { getJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { AdminMessageView, SessionReviewView } from "./types";

const PAGE = 100;

/** The reviewed history loaded so far, and the next older page; a failure is handed to `setError`. */
export function useReviewHistory(review: SessionReviewView, setError: (message: string | null) => void) {
  const t = useT("admin");
  const errorText = useErrorText();
  const { session } = review;
  const [messages, setMessages] = useState<AdminMessageView[]>(review.messages);
  const [hasMore, setHasMore] = useState(review.hasMore);
  const [pathNext, setPathNext] = useState(review.pathNext);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const firstSeq = messages[0]?.seq;

  async function loadOlder() {
    if (firstSeq === undefined) return;
    setLoadingOlder(true);
    setError(null);
    try {
      // pathFrom: where the active path continues, so this page walks only its own part of it.
      const data = await getJson<Pick<SessionReviewView, "messages" | "hasMore" | "pathNext">>(
        `/api/admin/sessions/${session.id}?before=${firstSeq}&limit=${PAGE}&pathFrom=${encodeURIComponent(pathNext ?? "")}`,
      );
      setMessages((prev) => [...data.messages, ...prev]);
      setHasMore(data.hasMore);
      setPathNext(data.pathNext);
    } catch (e) {
      setError(errorText(e, t("review.loadOlderFailed")));
    } finally {
      setLoadingOlder(false);
    }
  }

  return { messages, hasMore, loadingOlder, loadOlder };
}
