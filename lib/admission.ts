// Requests begin their work one per turn of the event loop (lib/http.ts `route`). A burst of requests would
// otherwise run their synchronous parts back to back in a single turn — on SQLite a turn's whole transaction is
// synchronous (better-sqlite3 never yields) — and every answer already streaming would wait for all of them: 1 000
// turns started at once stalled the loop for over a second (bench W6). Admitted one per turn, the timers and
// sockets of the open streams are served between any two starts. When requests do not pile up, admission costs
// one pass through the loop (microseconds).

const waiting: (() => void)[] = [];
let draining = false;

function admitNext(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(admitNext);
  else draining = false;
}

/** Resolves on a later turn of the event loop than any request admitted before it, in arrival order. */
export function admission(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!draining) {
      draining = true;
      setImmediate(admitNext);
    }
  });
}
