"use client";

import { useEffect, useRef, useState } from "react";

/**
 * Attaches to an answer written elsewhere (opened mid-answer: a reload, another tab or device) once per answer:
 * `follow` streams it into the view with Stop shown. Returns whether the stream of the answer shown failed, so
 * the caller can fall back to polling the stored page.
 */
export function useAttachAnswer({
  sessionId,
  answerId,
  follow,
}: {
  sessionId: string | null;
  /** The last answer of the path while it is written by no stream of this view (null otherwise). */
  answerId: string | null;
  follow: (sessionId: string, messageId: string) => Promise<boolean>;
}): boolean {
  const attached = useRef(new Set<string>());
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId || !answerId || attached.current.has(answerId)) return;
    attached.current.add(answerId);
    void follow(sessionId, answerId).then((ok) => {
      if (!ok) setFailed(answerId);
    });
  }, [sessionId, answerId, follow]);
  return answerId !== null && failed === answerId;
}
