import "server-only";
import { describeRetentionRound, runRetentionRound } from "@/lib/db/retention";
import { deleteStaleTemporarySessions } from "@/lib/db/temporary";
import { env } from "@/lib/env";

// The in-process retention run (instrumentation.ts): a round at server start, then every hour (temporary chats
// always, idle conversations when HISTORY_RETENTION_DAYS is set). Several instances
// may all schedule it; on PostgreSQL one runs each round and the others skip it (lib/db/retention.ts).

const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionSchedule {
  /** The round started with the schedule (resolves when it ends; it never rejects). */
  first: Promise<void>;
  stop(): void;
}

/** One round, logged; an error is logged and never thrown, so a failing database cannot crash the server. */
async function logged(): Promise<void> {
  try {
    const temporary = await deleteStaleTemporarySessions();
    if (temporary.sessions > 0)
      console.log(`retention: deleted ${temporary.sessions} temporary chat(s) over a day old`);
    if (env.HISTORY_RETENTION_DAYS !== undefined)
      console.log(describeRetentionRound(await runRetentionRound()));
  } catch (error) {
    console.error("retention: the round failed; the next one runs in an hour", error);
  }
}

/**
 * Starts the schedule. Temporary chats over a day old are deleted in every round; idle conversations only when
 * HISTORY_RETENTION_DAYS is set.
 */
export function startRetentionSchedule({
  intervalMs = RETENTION_INTERVAL_MS,
}: {
  intervalMs?: number;
} = {}): RetentionSchedule {
  let running: Promise<void> | null = null;
  // A round still running when the next is due (a huge backlog) is left to finish; that tick is skipped.
  const tick = () => {
    running ??= logged().finally(() => {
      running = null;
    });
    return running;
  };
  const first = tick();
  // unref: the timer never keeps a process alive on its own (the server's sockets do).
  const timer = setInterval(tick, intervalMs).unref();
  return { first, stop: () => clearInterval(timer) };
}
