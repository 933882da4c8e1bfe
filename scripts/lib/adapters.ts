import { randomBytes } from "node:crypto";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from "@prisma/driver-adapter-utils";
import pg from "pg";
import { quoteIdent, withDatabase } from "./database-url";

// Driver adapters for the schema engine only (migrations and diffs), with the fixes that the stock adapters
// need for it. The app's client (lib/db/client.ts) uses the stock adapters.

/** Delegates every member to `target`, with methods bound to it (the adapters use #private fields). */
function decorate<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop, _receiver) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T];
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

/** A factory that also closes, after the engine is done, every connection it handed out and the engine kept. */
export type MigrationAdapterFactory = SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> };

function closing(
  factory: Omit<SqlMigrationAwareDriverAdapterFactory, "connect" | "connectToShadowDb">,
  connect: () => Promise<SqlDriverAdapter>,
  connectToShadowDb: () => Promise<SqlDriverAdapter>,
): MigrationAdapterFactory {
  const open = new Set<SqlDriverAdapter>();
  const track = async (make: () => Promise<SqlDriverAdapter>) => {
    const adapter = await make();
    const tracked = decorate(adapter, {
      async dispose() {
        if (!open.delete(tracked)) return;
        await adapter.dispose();
      },
    });
    open.add(tracked);
    return tracked;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => track(connect),
    connectToShadowDb: () => track(connectToShadowDb),
    async close() {
      for (const adapter of [...open]) await adapter.dispose();
    },
  };
}

// ---------------------------------------------------------------------------------------------------- SQLite

/**
 * adapter-better-sqlite3 reports SQLITE_BUSY as kind "SocketTimeout", which the 7.10 engine cannot decode
 * ("unknown variant"): pass it on as a plain error with a useful message instead.
 */
function sqliteBusy(error: unknown): never {
  if (error instanceof DriverAdapterError && error.cause.kind === "SocketTimeout") {
    throw new Error(
      "SQLite database is locked (SQLITE_BUSY): the schema engine needs it exclusively; stop the app and any " +
        "other connection to it, then migrate again",
    );
  }
  throw error;
}

/**
 * better-sqlite3 prepares one statement at a time, and the engine sends whole scripts through executeRaw when it
 * replays migrations in the shadow database: run those with executeScript.
 */
function sqliteMigrationAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return decorate(adapter, {
    async executeRaw(query: SqlQuery): Promise<number> {
      try {
        return await adapter.executeRaw(query);
      } catch (error) {
        const multi = error instanceof RangeError && /more than one statement/.test(error.message);
        if (!multi || query.args.length > 0) sqliteBusy(error);
        await adapter.executeScript(query.sql).catch(sqliteBusy);
        return 0;
      }
    },
    queryRaw: (query: SqlQuery) => adapter.queryRaw(query).catch(sqliteBusy),
    executeScript: (script: string) => adapter.executeScript(script).catch(sqliteBusy),
  });
}

export function sqliteMigrationFactory(file: string): MigrationAdapterFactory {
  const inner = new PrismaBetterSqlite3({ url: file });
  return closing(
    inner,
    async () => sqliteMigrationAdapter(await inner.connect()),
    // An in-memory database, created per call and gone with its connection.
    async () => sqliteMigrationAdapter(await inner.connectToShadowDb()),
  );
}

// ------------------------------------------------------------------------------------------------ PostgreSQL

const CHAR_OID = 18; // PostgreSQL's internal one-byte "char" type (pg_class.relkind, pg_constraint.contype, ...)
const TEXT_OID = 25;

type QueryResultLike = { fields?: { dataTypeID: number }[] };

function charAsText(result: unknown): unknown {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const field of (r as QueryResultLike | undefined)?.fields ?? []) {
      if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
    }
  }
  return result;
}

/**
 * adapter-pg 7.10 rejects columns of type "char", which the engine's catalog queries return: report them as
 * text (their values already arrive as strings).
 */
class CharAsTextClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is heavily overloaded; we only post-process results.
  override query(...args: any[]): any {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (err: unknown, res: unknown) => callback(err, err ? res : charAsText(res));
    }
    // biome-ignore lint/suspicious/noExplicitAny: see above
    const ret = (super.query as (...a: any[]) => any)(...args);
    return ret && typeof ret.then === "function" ? ret.then(charAsText) : ret;
  }
}

function toDriverError(error: unknown): never {
  const e = error as pg.DatabaseError;
  if (typeof e?.code === "string" && typeof e.severity === "string") {
    throw new DriverAdapterError({
      kind: "postgres",
      code: e.code,
      severity: e.severity,
      message: e.message,
      detail: e.detail,
      column: e.column,
      hint: e.hint,
      originalMessage: e.message,
    });
  }
  throw error;
}

function pgAdapterFactory(url: string): PrismaPg {
  return new PrismaPg({ connectionString: url, Client: CharAsTextClient, max: 2 });
}

/**
 * adapter-pg's executeScript splits on `;` (breaking `$$` bodies and string literals): send the script as one
 * simple-protocol query instead, which PostgreSQL also runs as one implicit transaction.
 */
function pgWholeScript(
  adapter: SqlDriverAdapter & { underlyingDriver(): pg.Pool },
  dispose?: () => Promise<void>,
) {
  return decorate<SqlDriverAdapter>(adapter, {
    async executeScript(script: string): Promise<void> {
      await adapter
        .underlyingDriver()
        .query(script)
        .catch((error: unknown) => toDriverError(error));
    },
    ...(dispose ? { dispose } : {}),
  });
}

export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `url` is the database to migrate. The shadow database (needed to replay migrations for a diff) is created
 * on the server of `adminUrl` (default: the same server's `postgres` database) under a random name and dropped
 * when the engine lets go of it. adapter-pg's own shadow would connect to the main database.
 */
export function postgresMigrationFactory(url: string, adminUrl = withDatabase(url)): MigrationAdapterFactory {
  const inner = pgAdapterFactory(url);
  return closing(
    inner,
    async () => pgWholeScript(await inner.connect()),
    async () => {
      const name = `recall_shadow_${randomBytes(6).toString("hex")}`;
      await withPgClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
      const shadow = await pgAdapterFactory(withDatabase(adminUrl, name)).connect();
      return pgWholeScript(shadow, async () => {
        await shadow.dispose();
        await withPgClient(adminUrl, (c) =>
          c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
        );
      });
    },
  );
}
