import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import { env } from "@/lib/env";
import { databaseKind, sqliteAdapterOf, type Tx } from "./client";

// Written-out statements for the turn's hot path (issue 27, docs/decisions/041-hot-path-statements.md). A Prisma
// model query costs ~0.2–0.3 ms of JavaScript per statement (query plan, argument nesting, result mapping) and a
// turn sends about twenty: more than SQLite takes to run all of them. The few statements every turn sends are
// written here once for both dialects and sent with as little in between as each dialect allows:
//   SQLite: straight to the driver adapter of the client's one connection (the same connection and, inside a
//     transaction, the same open transaction Prisma's own statements run in; better-sqlite3 runs a statement
//     synchronously, so nothing interleaves with it);
//   PostgreSQL: as a raw statement on the caller's client or transaction (no query plan; a transaction's
//     statements must go to its own pooled connection, which only Prisma holds).
// Everything off the hot path stays on the typed Prisma API. The data-access module of each table keeps its
// statements; this module only sends them.

type Client = Tx;

/** Transactions opened by withTransaction: their client, and until when Prisma is sure to keep them open. */
const openTransactions = new WeakMap<object, { client: object; until: number }>();

/**
 * transaction.ts: `tx` belongs to `client`, and Prisma does not roll it back before `until` (performance.now()
 * time: the transaction's timeout counted from before it was asked for). Statements sent later go through Prisma,
 * which refuses them once the transaction is closed.
 */
export function registerTransaction(tx: object, client: object, until: number): void {
  openTransactions.set(tx, { client, until });
}

/** The SQLite adapter a statement for `client` may go to directly, or null (PostgreSQL, not connected, closed). */
function directAdapter(client: object): SqlDriverAdapter | null {
  const open = openTransactions.get(client);
  if (open) {
    // Prisma's timeout started after `until` was set: before it, the transaction cannot have been rolled back.
    if (performance.now() >= open.until) return null;
    return sqliteAdapterOf(open.client);
  }
  return sqliteAdapterOf(client);
}

/** A statement in both dialects: one text with `?` placeholders, or a text per dialect (PostgreSQL casts). */
export type Statement = string | { sqlite: string; postgresql: string };

const sqliteText = (s: Statement) => (typeof s === "string" ? s : s.sqlite);

/** `?` placeholders become `$1, $2, …` (the statements here have no `?` inside string literals). */
function postgresText(s: Statement): string {
  if (typeof s !== "string") return s.postgresql;
  let n = 0;
  return s.replace(/\?/g, () => `$${++n}`);
}

const argTypes = (args: readonly unknown[]) =>
  args.map(() => ({ scalarType: "unknown" as const, arity: "scalar" as const }));

/** Where a statement for `client` goes: the SQLite adapter, or Prisma's raw API with the dialect's text. */
function route(client: Client, statement: Statement) {
  const sqlite = databaseKind(env.DATABASE_URL) === "sqlite";
  const adapter = sqlite ? directAdapter(client) : null;
  const sql = sqlite ? sqliteText(statement) : postgresText(statement);
  return { adapter, sql };
}

/** The rows of a query, as objects by column name (values as the dialect returns them: see the readers below). */
export async function queryRows<T extends Record<string, unknown>>(
  client: Client,
  statement: Statement,
  args: readonly unknown[],
): Promise<T[]> {
  const { adapter, sql } = route(client, statement);
  if (!adapter) return client.$queryRawUnsafe<T[]>(sql, ...args);
  const result = await adapter.queryRaw({ sql, args: [...args], argTypes: argTypes(args) });
  return result.rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < result.columnNames.length; i++) out[result.columnNames[i] as string] = row[i];
    return out as T;
  });
}

/** Runs a statement that returns no rows; the number of rows it changed. */
export async function execute(
  client: Client,
  statement: Statement,
  args: readonly unknown[],
): Promise<number> {
  const { adapter, sql } = route(client, statement);
  if (!adapter) return client.$executeRawUnsafe(sql, ...args);
  return adapter.executeRaw({ sql, args: [...args], argTypes: argTypes(args) });
}

// Readers for values as either dialect returns them (SQLite: numbers, 0/1, ISO text, JSON text; PostgreSQL through
// Prisma: numbers or bigints, booleans, Dates, parsed JSON).

export const asNumber = (v: unknown): number => (typeof v === "number" ? v : Number(v));
export const asBoolean = (v: unknown): boolean => v === true || (v !== false && Number(v) === 1);
export const asDate = (v: unknown): Date =>
  v instanceof Date ? v : new Date(typeof v === "bigint" ? Number(v) : (v as string | number));
export const asDateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : asDate(v));
/** A Json column: SQLite keeps it as text, PostgreSQL's rows come parsed. */
export const asJson = (v: unknown): unknown =>
  typeof v === "string" && databaseKind(env.DATABASE_URL) === "sqlite" ? (JSON.parse(v) as unknown) : v;
/** A Json argument: text on SQLite, cast with `::jsonb` in the PostgreSQL text. */
export const jsonArg = (v: unknown): string | null =>
  v === null || v === undefined ? null : JSON.stringify(v);
