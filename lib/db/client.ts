import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import type Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { env } from "@/lib/env";
import { PrismaClient as PostgresPrismaClient } from "@/lib/generated/postgresql/client";
import { type Prisma, PrismaClient as SqlitePrismaClient } from "@/lib/generated/sqlite/client";
import { ConnectionGate, gatedAdapter } from "./connection-gate";
import { startWalCheckpoints, type WalCheckpoints } from "./wal-checkpoints";

// The one place that creates Prisma clients. No `import "server-only"` here: vitest and tsx scripts import this
// module too; the query modules next to it (sessions.ts, …) carry the server-only marker.
//
// The dialect follows DATABASE_URL at run time: `file:` → SQLite (better-sqlite3), `postgres(ql)://` →
// PostgreSQL (pg). Each dialect has its own generated client (lib/generated/<dialect>, from prisma/schema.prisma
// and its PostgreSQL copy); their APIs are identical, so both are typed as the SQLite client.

export type Db = SqlitePrismaClient;
/** The client inside a transaction (lib/db/transaction.ts); the app's client `db` is one too, outside any. */
export type Tx = Prisma.TransactionClient;
/**
 * The last argument of every query: `tx`, the caller's transaction (or another client, as tests and the bench
 * pass), else the app's client `db`.
 */
export interface TxOption {
  tx?: Tx | undefined;
}
export type DatabaseKind = "sqlite" | "postgresql";

export type {
  AuditLog,
  ChatMessage,
  ChatSession,
  MemorySnapshot,
  Prisma,
  TurnContext,
  User,
} from "@/lib/generated/sqlite/client";

export function databaseKind(url: string): DatabaseKind {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error("DATABASE_URL must start with file: or postgresql://");
}

/** Absolute path of a `file:` URL; relative paths are resolved against process.cwd(). */
export function sqlitePath(url: string): string {
  const withoutQuery = url.replace(/\?.*$/, "");
  if (withoutQuery.startsWith("file://")) return fileURLToPath(withoutQuery);
  const file = withoutQuery.slice("file:".length);
  // The database file is chosen at run time, never a file of the build: Turbopack's tracer is told not to follow
  // it (else it traces, and warns about, the whole project).
  return file === ":memory:" ? file : path.resolve(/*turbopackIgnore: true*/ process.cwd(), file);
}

/**
 * Run on every new SQLite connection, before Prisma sends anything on it. busy_timeout first so the switch to
 * WAL waits for other connections; WAL is stored in the file, after which synchronous=NORMAL is safe.
 */
export const SQLITE_PRAGMAS = [
  "PRAGMA busy_timeout = 5000",
  "PRAGMA foreign_keys = ON",
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL",
  // Deleted rows are overwritten with zeros in the database file; the -wal file still holds the old pages until a
  // checkpoint, which every deletion runs before it answers (checkpoint.ts).
  "PRAGMA secure_delete = ON",
];

/**
 * better-sqlite3 has no connect hook, and SQLite's foreign_keys default depends on how it was compiled. Prisma
 * opens the connection through the adapter factory's connect() (lazily, on the first query or $connect) and
 * awaits it before its first query, so the pragmas run there: no query can ever see foreign keys off, and the
 * client stays synchronous to create.
 */
class SqliteAdapterWithPragmas extends PrismaBetterSqlite3 {
  /** The connected adapter, for the hot path's written-out statements (sql.ts). */
  readonly connected: SqliteConnection = { adapter: null, conn: null };
  private readonly inMemory: boolean;
  private readonly file: string;

  constructor(config: { url: string }) {
    super(config);
    this.file = config.url;
    this.inMemory = config.url === ":memory:";
  }

  override async connect() {
    const main = await this.open([]);
    immediateTransactions(main.conn);
    // A second connection for reads outside a transaction while one is open (connection-gate.ts): it sees what is
    // committed. An in-memory database has no second connection to the same data: such reads wait instead.
    let reader: SqlDriverAdapter | null = null;
    try {
      if (!this.inMemory) reader = (await this.open(["PRAGMA query_only = ON"])).adapter;
    } catch (error) {
      await main.adapter.dispose();
      throw error;
    }
    const gate = new ConnectionGate();
    const adapter = gatedAdapter(main.adapter, { reader, gate });
    const checkpoints = this.inMemory ? null : startWalCheckpoints(this.file, [main.conn]);
    const dispose = adapter.dispose;
    adapter.dispose = async () => {
      await checkpoints?.stop();
      await dispose();
    };
    this.connected.adapter = adapter;
    this.connected.conn = main.conn;
    this.connected.checkpoints = checkpoints;
    this.connected.gate = gate;
    return adapter;
  }

  /** A new connection with the vector extension, the statement cache and the pragmas (then `extra`). */
  private async open(extra: string[]) {
    const adapter = await super.connect();
    const conn = (adapter as unknown as { client: Database.Database }).client;
    loadVectorExtension(conn);
    cacheStatements(conn);
    try {
      await adapter.executeScript(`${[...SQLITE_PRAGMAS, ...extra].join(";\n")};`);
    } catch (error) {
      await adapter.dispose();
      throw error;
    }
    return { adapter, conn };
  }
}

interface SqliteConnection {
  adapter: SqlDriverAdapter | null;
  conn: Database.Database | null;
  checkpoints?: WalCheckpoints | null;
  gate?: ConnectionGate;
}

const sqliteConnections = new WeakMap<object, SqliteConnection>();

/**
 * The driver adapter of a SQLite client's one connection, once Prisma has opened it and while it is open (null:
 * PostgreSQL, or not connected). Statements sent to it run on the connection Prisma's own run on (lib/db/sql.ts).
 */
export function sqliteAdapterOf(client: object): SqlDriverAdapter | null {
  const c = sqliteConnections.get(client);
  return c?.conn?.open ? c.adapter : null;
}

/** The WAL checkpoint worker of a SQLite client's open connection (null: PostgreSQL, in memory, or not connected). */
export function walCheckpointsOf(client: object): WalCheckpoints | null {
  return sqliteConnections.get(client)?.checkpoints ?? null;
}

/**
 * A TRUNCATE checkpoint on the WAL worker's connection, this process's connection held meanwhile so that none of its
 * transactions begins in the middle: the checkpoint holds SQLite's write lock, and a transaction that has read and
 * then writes gets SQLITE_BUSY at once (SQLite calls no busy handler for a read transaction's upgrade). `hold`,
 * not `run`: the worker answers asynchronously, so a free gate must still be taken. Null when no worker runs
 * (PostgreSQL, in memory, not connected, stopped): the caller checkpoints on its own connection.
 */
export async function truncateWalInWorker(client: object): Promise<boolean | null> {
  const c = sqliteConnections.get(client);
  const checkpoints = c?.checkpoints;
  if (!c?.gate || !checkpoints?.running) return null;
  return c.gate.hold(() => checkpoints.truncate());
}

/**
 * sqlite-vec's functions (vec_distance_cosine…) on this connection, for recall's embeddings
 * (docs/decisions/026-recall.md). Without it (a platform sqlite-vec has no build for) recall is lexical only;
 * lib/db/embeddings.ts asks the connection and says so.
 */
function loadVectorExtension(conn: Database.Database): void {
  try {
    sqliteVec.load(conn);
  } catch (error) {
    vectorLoad.error = error instanceof Error ? error.message : String(error);
  }
}
const vectorLoad: { error?: string } = {};
/** Why sqlite-vec could not be loaded (undefined: it was, or no SQLite connection was opened yet). */
export const vectorExtensionError = () => vectorLoad.error;

/** Statements kept prepared per connection (least recently used dropped first); a turn sends about a dozen. */
const STATEMENT_CACHE_SIZE = 200;

/**
 * Prepares each distinct SQL text once per connection instead of on every query: the SQLite adapter calls
 * `prepare(sql).bind(args)` for each statement, and preparing was ~4 % of a turn's CPU. A better-sqlite3 statement
 * can be bound only once, so the cached statement is handed out behind a view that passes the arguments at
 * execution instead — covering exactly what the adapter calls (`bind`, then `run`, or `reader`, `columns()` and
 * `raw().all()`); anything else is a TypeError in every test, not a silent difference. SQLite re-prepares a cached
 * statement by itself after a schema change.
 */
export function cacheStatements(conn: Database.Database, size = STATEMENT_CACHE_SIZE): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, Database.Statement<unknown[]>>();
  const view = (stmt: Database.Statement<unknown[]>, args: unknown[]) => ({
    reader: stmt.reader,
    bind: (...bound: unknown[]) => view(stmt, bound),
    run: () => stmt.run(...args),
    columns: () => stmt.columns(),
    raw: () => ({ all: () => stmt.raw(true).all(...args) }),
  });
  conn.prepare = ((sql: string) => {
    let stmt = cache.get(sql);
    if (stmt) cache.delete(sql);
    else {
      stmt = prepare(sql) as Database.Statement<unknown[]>;
      if (cache.size >= size) cache.delete(cache.keys().next().value ?? "");
    }
    cache.set(sql, stmt);
    return view(stmt, []);
  }) as unknown as typeof conn.prepare;
}

/**
 * Transactions take SQLite's write lock at their BEGIN (BEGIN IMMEDIATE), waiting under busy_timeout for another
 * process's writer. Prisma's adapter begins them DEFERRED: a transaction that has read and then writes while another
 * connection holds the write lock (a second server on the same file, a script, the checkpoint worker's TRUNCATE) is
 * refused with SQLITE_BUSY at once — SQLite calls no busy handler when a read transaction upgrades, since waiting
 * could deadlock. In this process transactions run one at a time behind the connection gate anyway, so taking the
 * lock early costs nothing here. If the wait runs out, the transaction begins DEFERRED as before: the adapter's own
 * transaction lock is released only by a commit or rollback, so a BEGIN that throws would leave it held for good.
 */
export function immediateTransactions(conn: Database.Database): void {
  const prepare = conn.prepare.bind(conn);
  conn.prepare = ((sql: string) => {
    if (sql !== "BEGIN") return prepare(sql);
    return {
      run: () => {
        try {
          return prepare("BEGIN IMMEDIATE").run();
        } catch (error) {
          if (!String((error as { code?: unknown }).code).startsWith("SQLITE_BUSY")) throw error;
          return prepare("BEGIN").run();
        }
      },
    };
  }) as unknown as typeof conn.prepare;
}

/**
 * How long a request may hold the database (docs/decisions/023-input-boundary.md). An interactive transaction is
 * rolled back by Prisma after `timeout` (and waits at most `maxWait` to start); on PostgreSQL the server itself
 * also ends any statement after `statement_timeout` and a session left idle inside a transaction after
 * `idle_in_transaction_session_timeout` (a process that stopped mid-transaction), releasing their locks.
 */
export const TRANSACTION_OPTIONS = { maxWait: 2_000, timeout: 5_000 } as const;
export const POSTGRES_SESSION_LIMITS = {
  statement_timeout: 30_000,
  idle_in_transaction_session_timeout: 15_000,
} as const;

/** Distinct statement texts one client names at most (PostgreSQL keeps each named statement per connection). */
const NAMED_STATEMENTS = 1000;

/**
 * PostgreSQL: a name for each distinct statement text (DATABASE_PREPARED_STATEMENTS), so that each pooled
 * connection parses a text once and may keep its plan, instead of parsing and planning every statement the turn
 * sends (docs/decisions/041-hot-path-statements.md). Names are bounded: texts beyond the first NAMED_STATEMENTS
 * go unnamed, as every statement did before, so a server never accumulates one per IN-list length.
 */
export function statementNames(limit = NAMED_STATEMENTS): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    let name = names.get(sql);
    if (name === undefined) {
      // pg sends an unnamed statement for an empty name, as for none.
      if (names.size >= limit) return "";
      name = `recall_${names.size.toString(36)}`;
      names.set(sql, name);
    }
    return name;
  };
}

/** A new client for `url`. The caller owns it ($disconnect when done). Connects on first use. */
export function createPrismaClient(
  url: string,
  { preparedStatements = env.DATABASE_PREPARED_STATEMENTS }: { preparedStatements?: boolean } = {},
): Db {
  if (databaseKind(url) === "sqlite") {
    const adapter = new SqliteAdapterWithPragmas({ url: sqlitePath(url) });
    const client = new SqlitePrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
    sqliteConnections.set(client, adapter.connected);
    return client;
  }
  const client = new PostgresPrismaClient({
    adapter: new PrismaPg(
      { connectionString: url, ...POSTGRES_SESSION_LIMITS },
      preparedStatements ? { statementNameGenerator: statementNames() } : {},
    ),
    transactionOptions: TRANSACTION_OPTIONS,
  });
  return client as unknown as Db;
}

// One client per process for the app. In development Next.js re-evaluates modules on every change; keep the
// client on globalThis so each reload does not open another connection pool.
const cache = globalThis as unknown as { __recallDb?: { key: string; client: Db } };

function appClient(): Db {
  const url = env.DATABASE_URL;
  const key = `${url} ${env.DATABASE_PREPARED_STATEMENTS}`;
  if (cache.__recallDb?.key === key) return cache.__recallDb.client;
  const client = createPrismaClient(url);
  if (env.NODE_ENV !== "production") cache.__recallDb = { key, client };
  return client;
}

/** The app's client, for env.DATABASE_URL. */
export const db: Db = appClient();
