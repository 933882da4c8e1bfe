import { setTimeout as sleep } from "node:timers/promises";
import { env } from "@/lib/env";
import { retryable } from "./checkpoint";
import { databaseKind, db } from "./client";

// SQLite: the messages' FTS5 index gets a new segment with every transaction that indexes (a turn's question and
// answer, an import), and every term a lookup names is looked up in every segment. FTS5's automerge only merges as
// much as is written, so small segments pile up and a recall lookup cost about twice what it did with merge steps
// (docs/decisions/043-search-merge.md). After each such write, one bounded incremental merge runs off the request's
// path: FTS5's 'merge' writes about MERGE_PAGES pages, joining segments of a level that holds four or more (its
// `usermerge` default). PostgreSQL's GIN index has no segments.

/** Pages one merge step writes at most (FTS5 stops about there; the rest of a large merge waits for the next step). */
const MERGE_PAGES = 16;

let pending: Promise<void> | null = null;

/**
 * One merge step of the messages' index after the current request's work (a no-op on PostgreSQL). Writes that come
 * while a step is waiting share it. A timer, not setImmediate: the answer's last events may still be waiting for
 * their own setImmediate, and the step must not hold them back.
 */
export function scheduleSearchMerge(): void {
  if (pending || databaseKind(env.DATABASE_URL) !== "sqlite") return;
  pending = sleep(1)
    .then(() => mergeSearchIndex())
    .then(() => undefined)
    .catch((error: unknown) => console.error("db: merging the search index's segments failed", error))
    .finally(() => {
      pending = null;
    });
}

/**
 * One incremental merge step: false when another writer or a statement still reading kept it from running (the
 * next write's step merges instead).
 */
export function mergeSearchIndex(pages = MERGE_PAGES): Promise<boolean> {
  return retryable(() =>
    db
      .$executeRawUnsafe(`INSERT INTO "SearchFts"("SearchFts", rank) VALUES ('merge', ${Math.trunc(pages)})`)
      .then(() => true),
  );
}

/** Resolves once no merge step is waiting or running (tests). */
export async function searchMergeSettled(): Promise<void> {
  while (pending) await pending;
}
