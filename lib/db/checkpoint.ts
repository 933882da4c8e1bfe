import { env } from "@/lib/env";
import { databaseKind, db, truncateWalInWorker } from "./client";

// FTS5 first (see optimizeSearchIndexes), only for the indexes the deletion took rows from. With WAL, a deleted page is first written to the -wal file, and the frames that still hold the old content stay
// there until a checkpoint copies the newest pages into the database file. secure_delete zeroes the freed content in
// the database file; only a TRUNCATE checkpoint also empties the -wal file. So every deletion ends with one.
//
// Concurrent deletions share a checkpoint: a caller joins the next one to start (never one already running, which
// may have started before its own commit). A checkpoint cannot finish while a reader holds an older snapshot (another
// process, a backup): it is retried every RETRY_MS for up to BOUND_MS; after that the caller gets `false` and the
// next deletion or the retry timer takes over. PostgreSQL keeps no WAL the app could read back; nothing to do there.

const RETRY_MS = 25;
/** A deletion's bytes leave the -wal file within this many milliseconds (or the checkpoint reports busy). */
const CHECKPOINT_BOUND_MS = 2000;

/** The full-text indexes a deletion can take rows from: messages' terms, and project files' chunks. */
export type SearchIndexName = "messages" | "chunks";
const FTS_TABLES: Record<SearchIndexName, string> = { messages: "SearchFts", chunks: "ProjectChunkFts" };

let next: Promise<boolean> | null = null;
let running: Promise<boolean> | null = null;
/** The indexes the next run merges: every caller that joined it adds its own. */
let pending = new Set<SearchIndexName>();

/**
 * FTS5's secure-delete empties a deleted row's postings but can leave its terms on the segment's leaf (seen with
 * SQLite 3.53) until the segment is merged; optimize merges every segment, which drops them. It rewrites the whole
 * index and blocks the process while it runs (~1.3 s at 300 000 messages), so only the indexes a deletion touched are
 * merged: a fact, an upload or a project file does not rewrite the messages' index.
 */
async function optimizeSearchIndexes(indexes: ReadonlySet<SearchIndexName>): Promise<boolean> {
  for (const index of indexes) {
    const table = FTS_TABLES[index];
    const done = await retryable(() =>
      db.$executeRawUnsafe(`INSERT INTO "${table}"("${table}") VALUES ('optimize')`).then(() => true),
    );
    if (!done) return false;
  }
  return true;
}

/** Another statement of this connection still reading (SQLITE_LOCKED) or another writer (SQLITE_BUSY): try again. */
export async function retryable(step: () => Promise<boolean>): Promise<boolean> {
  try {
    return await step();
  } catch (error) {
    if (/SQLITE_(LOCKED|BUSY)/.test(String((error as Error).message))) return false;
    throw error;
  }
}

async function truncateOnce(): Promise<boolean> {
  // On the checkpoint worker's connection (wal-checkpoints.ts) when it runs: it never waits there. On the app's,
  // busy_timeout applies — a reader of an older snapshot (another process, a backup) would keep the checkpoint
  // waiting for up to 5 s holding the write lock, every writer of every process and this thread's event loop with it.
  const inWorker = await truncateWalInWorker(db);
  if (inWorker !== null) return inWorker;
  return retryable(async () => {
    const rows = await db.$queryRawUnsafe<{ busy: number | bigint }[]>("PRAGMA wal_checkpoint(TRUNCATE)");
    return Number(rows[0]?.busy ?? 0) === 0;
  });
}

async function checkpointWithRetries(indexes: ReadonlySet<SearchIndexName>): Promise<boolean> {
  const until = Date.now() + CHECKPOINT_BOUND_MS;
  let optimized = false;
  for (;;) {
    optimized ||= await optimizeSearchIndexes(indexes);
    if (optimized && (await truncateOnce())) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * Empties the SQLite -wal file after a committed deletion, so the deleted bytes are gone from every file on disk
 * when the caller returns its receipt. True when the checkpoint completed; false when readers kept it busy for
 * CHECKPOINT_BOUND_MS (logged). A no-op on PostgreSQL.
 */
function checkpointAfterDeletion(indexes: readonly SearchIndexName[]): Promise<boolean> {
  if (databaseKind(env.DATABASE_URL) !== "sqlite") return Promise.resolve(true);
  for (const index of indexes) pending.add(index);
  if (next) return next;
  const after = running ?? Promise.resolve(true);
  const mine: Promise<boolean> = after
    .catch(() => false)
    .then(() => {
      next = null;
      running = mine;
      const merging = pending;
      pending = new Set();
      return checkpointWithRetries(merging);
    })
    .catch((error) => {
      console.error("db: the WAL checkpoint after a deletion failed; it is retried at the next one", error);
      return false;
    })
    .then((done) => {
      if (!done)
        console.warn("db: the WAL checkpoint after a deletion stayed busy; it is retried at the next one");
      return done;
    })
    .finally(() => {
      if (running === mine) running = null;
    });
  next = mine;
  return mine;
}

/**
 * After a deletion's transaction: hands its result on once the checkpoint has run, having merged the full-text
 * indexes the deletion took rows from (none: only the -wal file is emptied).
 */
export async function checkpointed<T>(result: T, indexes: readonly SearchIndexName[] = []): Promise<T> {
  await checkpointAfterDeletion(indexes);
  return result;
}
