import path from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

// SQLite in WAL mode copies the -wal file back into the database file (a checkpoint) when a commit finds the log
// longer than `wal_autocheckpoint` pages, inside that commit: on the event loop's thread, ~1 commit in 35 of a turn
// took 5–36 ms instead of ~0.2 ms (copying ~1 000 pages and an fsync), every request waiting behind it. Here a worker
// thread with its own connection runs PASSIVE checkpoints every CHECKPOINT_INTERVAL_MS, so the app's connections
// only append to the log; their own autocheckpoint is raised to FALLBACK_PAGES, a bound reached only if the worker
// falls behind or stops (then it is set back to SQLite's default). docs/decisions/045-wal-checkpoint-worker.md.
//
// The worker is plain JavaScript evaluated from a string (no file for the bundler to trace) and loads
// better-sqlite3 from the project's node_modules, as the server does.

const CHECKPOINT_INTERVAL_MS = 100;
/** The app connections' own autocheckpoint while the worker runs (SQLite's default is 1 000 pages). */
export const FALLBACK_PAGES = 4000;
const SQLITE_DEFAULT_PAGES = 1000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require("node:module").createRequire(workerData.from)("better-sqlite3");
const db = new Database(workerData.file, { fileMustExist: true });
// Never wait: a checkpoint that finds a writer or reader in the way copies what it can and tries again next time.
db.pragma("busy_timeout = 0");
const fs = require("node:fs");
parentPort.postMessage({ ready: true });
// The pragma reports how many frames of the current log are in the database file; the log starts over (its header's
// checkpoint sequence number, bytes 12–15, goes up) once a writer finds it all copied. New frames = the difference.
const header = Buffer.alloc(4);
let sequence = -1;
let copied = 0;
setInterval(() => {
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)");
    if (!r || r.checkpointed <= 0) return;
    const fd = fs.openSync(workerData.file + "-wal", "r");
    try {
      fs.readSync(fd, header, 0, 4, 12);
    } finally {
      fs.closeSync(fd);
    }
    const now = header.readUInt32BE(0);
    if (now !== sequence) copied = 0;
    sequence = now;
    if (r.checkpointed > copied) parentPort.postMessage({ frames: r.checkpointed - copied });
    copied = r.checkpointed;
  } catch {
    // SQLITE_BUSY or SQLITE_LOCKED (another checkpoint, a deletion's TRUNCATE): the next interval tries again.
  }
}, workerData.intervalMs);
// A deletion's checkpoint (checkpoint.ts): the whole log copied and the file emptied, or "busy" at once when a writer
// or a reader of an older snapshot is in the way — never waiting while holding the write lock.
parentPort.on("message", ({ truncate }) => {
  let done = false;
  try {
    const [r] = db.pragma("wal_checkpoint(TRUNCATE)");
    done = Boolean(r) && r.busy === 0;
    if (done) copied = 0;
  } catch {
    done = false;
  }
  parentPort.postMessage({ truncated: truncate, done });
});
`;

export interface WalCheckpoints {
  /** Frames the worker has copied into the database file so far (its checkpoints' sum). */
  readonly framesCheckpointed: number;
  /** Whether the worker is open and the app's connections leave checkpoints to it. */
  readonly running: boolean;
  /** Settles when the worker has ended (stopped, or failed to open the database). */
  readonly exited: Promise<void>;
  /**
   * A TRUNCATE checkpoint on the worker's connection: true when the whole log was copied and the -wal file emptied,
   * false when a writer or a reader of an older snapshot was in the way (at once: it does not wait), null when the
   * worker is not running (the caller checkpoints itself).
   */
  truncate(): Promise<boolean | null>;
  stop(): Promise<void>;
}

/**
 * Starts the checkpoint worker for the database at `file`, for the app connections `conns` (their autocheckpoint is
 * raised once the worker has opened the database, and set back if it stops). The worker does not keep the process
 * alive.
 */
export function startWalCheckpoints(
  file: string,
  conns: readonly Database.Database[],
  intervalMs = CHECKPOINT_INTERVAL_MS,
): WalCheckpoints {
  const state = { frames: 0, running: false, stopped: false };
  /** Truncations asked of the worker and not answered yet, by request number. */
  const truncations = new Map<number, (done: boolean | null) => void>();
  let requests = 0;
  const setAutocheckpoint = (pages: number) => {
    for (const conn of conns) if (conn.open) conn.pragma(`wal_autocheckpoint = ${pages}`);
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, from: path.join(process.cwd(), "package.json"), intervalMs },
  });
  worker.unref();
  worker.on("message", (m: { ready?: true; frames?: number; truncated?: number; done?: boolean }) => {
    if (m.ready) {
      if (state.stopped) return;
      state.running = true;
      setAutocheckpoint(FALLBACK_PAGES);
    } else if (m.truncated !== undefined) {
      truncations.get(m.truncated)?.(m.done === true);
      truncations.delete(m.truncated);
      if (truncations.size === 0) worker.unref();
    } else state.frames += m.frames ?? 0;
  });
  const fallBack = () => {
    state.running = false;
    setAutocheckpoint(SQLITE_DEFAULT_PAGES);
    for (const answer of truncations.values()) answer(null);
    truncations.clear();
  };
  worker.on("error", (error) => {
    console.warn("db: the WAL checkpoint worker stopped; commits checkpoint the log themselves again", error);
    fallBack();
  });
  const exited = new Promise<void>((resolve) =>
    worker.on("exit", () => {
      fallBack();
      resolve();
    }),
  );
  return {
    exited,
    get framesCheckpointed() {
      return state.frames;
    },
    get running() {
      return state.running;
    },
    truncate() {
      if (!state.running) return Promise.resolve(null);
      const id = ++requests;
      return new Promise<boolean | null>((resolve) => {
        truncations.set(id, resolve);
        // A script that deletes and then has nothing else to do must not exit before the answer comes.
        worker.ref();
        worker.postMessage({ truncate: id });
      });
    },
    async stop() {
      state.stopped = true;
      state.running = false;
      await worker.terminate();
    },
  };
}
