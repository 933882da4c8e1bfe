import "server-only";
import pg from "pg";
import { env } from "@/lib/env";
import { databaseKind, db, type TxOption } from "./client";

// Live fan-out across instances on PostgreSQL (docs/decisions/033-live-answers.md): the instance writing an answer
// NOTIFYs its text as it grows on one channel, the answer's id in each payload; every process that follows answers
// written elsewhere LISTENs on it through one dedicated connection (not the pool's: a pooled connection is shared).

const LIVE_CHANNEL = "recall_live";
/** PostgreSQL refuses a payload of 8000 bytes or more. */
const MAX_NOTICE_BYTES = 7900;

/** A piece of answer `a`'s text starting at UTF-16 offset `o`, or its end. */
export type LiveNotice = { a: string; o: number; t: string } | { a: string; end: true };

/** Sends the notices in order (one after the other: NOTIFYs are delivered in the order they commit). */
export async function notifyLive(notices: readonly LiveNotice[], { tx = db }: TxOption = {}): Promise<void> {
  for (const notice of notices)
    await tx.$executeRaw`SELECT pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(notice)})`;
}

/** `text` (at `offset` of answer `id`) cut into notices whose payloads stay under MAX_NOTICE_BYTES. */
export function textNotices(
  id: string,
  offset: number,
  text: string,
  maxBytes = MAX_NOTICE_BYTES,
): LiveNotice[] {
  const notices: LiveNotice[] = [];
  const room = maxBytes - Buffer.byteLength(JSON.stringify({ a: id, o: offset + text.length, t: "" }));
  let start = offset;
  let piece = "";
  let bytes = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(JSON.stringify(ch)) - 2;
    if (bytes + size > room && piece) {
      notices.push({ a: id, o: start, t: piece });
      start += piece.length;
      piece = "";
      bytes = 0;
    }
    piece += ch;
    bytes += size;
  }
  if (piece) notices.push({ a: id, o: start, t: piece });
  return notices;
}

type Handler = (notice: LiveNotice) => void;

export interface LiveListener {
  /** Connected and listening: notices arrive (false before the first subscribe and after a lost connection). */
  readonly listening: boolean;
  /** Calls `handler` with answer `id`'s notices until the returned function is called. Connects if need be. */
  subscribe(id: string, handler: Handler): () => void;
  close(): Promise<void>;
}

function parse(payload: string | undefined): LiveNotice | null {
  try {
    const notice = JSON.parse(payload ?? "") as LiveNotice;
    return typeof notice?.a === "string" ? notice : null;
  } catch {
    return null;
  }
}

/** A listener with its own connection to `url`; it reconnects on the next subscribe after a lost connection. */
export function createLiveListener(url: string): LiveListener {
  const handlers = new Map<string, Set<Handler>>();
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    listening = false;
    void c.end().catch(() => {});
  };

  const connect = () => {
    if (client || closed) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on("notification", (msg) => {
      const notice = msg.channel === LIVE_CHANNEL ? parse(msg.payload) : null;
      for (const handler of (notice && handlers.get(notice.a)) || []) handler(notice as LiveNotice);
    });
    c.on("error", (e) => {
      console.warn(
        `[chat] the live channel's connection failed; followers read the stored draft: ${String(e)}`,
      );
      drop(c);
    });
    c.on("end", () => drop(c));
    c.connect()
      .then(() => c.query(`LISTEN ${LIVE_CHANNEL}`))
      .then(() => {
        listening = client === c;
      })
      .catch((e: unknown) => {
        console.warn(
          `[chat] LISTEN ${LIVE_CHANNEL} is unavailable; followers read the stored draft: ${String(e)}`,
        );
        drop(c);
      });
  };

  return {
    get listening() {
      return listening;
    },
    subscribe(id, handler) {
      connect();
      const set = handlers.get(id) ?? new Set();
      set.add(handler);
      handlers.set(id, set);
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.get(id) === set) handlers.delete(id);
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      const c = client;
      client = null;
      listening = false;
      await c?.end().catch(() => {});
    },
  };
}

const KEY = Symbol.for("recall.liveListener");
const shared = globalThis as Record<symbol, LiveListener | undefined>;

/** The process's listener on PostgreSQL (one connection, opened by the first follower); null on SQLite. */
export function liveListener(): LiveListener | null {
  if (databaseKind(env.DATABASE_URL) !== "postgresql") return null;
  shared[KEY] ??= createLiveListener(env.DATABASE_URL);
  return shared[KEY];
}

/** Whether this process's answers are announced on the live channel (PostgreSQL only). */
export const livePublishing = () => databaseKind(env.DATABASE_URL) === "postgresql";
