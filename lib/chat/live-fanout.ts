import "server-only";
import { livePublishing, notifyLive, textNotices } from "@/lib/db/live-channel";

// The announcing side of the live fan-out (docs/decisions/033-live-answers.md): an answer's text, as it grows, goes
// out on the live channel in batches at most FLUSH_MS apart, one NOTIFY after the other, then its end.

/** How long deltas are gathered into one NOTIFY (the issue allows batches up to 250 ms). */
const FLUSH_MS = 100;

export interface LivePublisher {
  /** `text` was appended at `offset` of the answer's text. */
  push(offset: number, text: string): void;
  /** The answer ended (and is stored): sends what is pending, then the end. */
  end(): void;
}

/** A publisher for answer `id` on PostgreSQL; null on SQLite (nothing is announced there). */
export function livePublisher(id: string): LivePublisher | null {
  if (!livePublishing()) return null;
  let pending = "";
  let pendingAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  const send = (build: () => Parameters<typeof notifyLive>[0]) => {
    chain = chain
      .then(() => notifyLive(build()))
      .catch((e: unknown) => console.warn(`[chat] announcing answer ${id} failed: ${String(e)}`));
  };
  const flush = () => {
    timer = null;
    if (!pending) return;
    const [offset, text] = [pendingAt, pending];
    pending = "";
    send(() => textNotices(id, offset, text));
  };
  return {
    push(offset, text) {
      if (!pending) pendingAt = offset;
      pending += text;
      timer ??= setTimeout(flush, FLUSH_MS);
    },
    end() {
      if (timer) clearTimeout(timer);
      flush();
      send(() => [{ a: id, end: true }]);
    },
  };
}
