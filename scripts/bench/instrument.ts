import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlQuery, SqlResultSet, Transaction } from "@prisma/driver-adapter-utils";

// Counts what the app's Prisma client really sends to the database: every statement that reaches the driver
// adapter (queryRaw / executeRaw, inside or outside a transaction), with the rows it returned or changed and the
// time the driver took. It patches the connect() of the two stock adapter factories *in the benchmark process
// only*: lib/db/client.ts builds its adapters on them (the SQLite one through a subclass that calls
// super.connect()), so the app's own `db` is instrumented without any hook in the app. Nothing here runs inside
// the Next.js server.

export interface Statement {
  sql: string;
  kind: "query" | "execute";
  /** Rows returned (query) or changed (execute). */
  rows: number;
  inTransaction: boolean;
  /** performance.now() when the statement was sent. */
  at: number;
  ms: number;
  args: SqlQuery["args"];
  argTypes: SqlQuery["argTypes"];
}

class Recorder {
  recording = false;
  statements: Statement[] = [];
  /** The most recently connected (unwrapped) adapter, for EXPLAIN. */
  adapter: SqlDriverAdapter | null = null;
  connects = 0;
}

const recorder = new Recorder();

/** Runs `fn` and returns the statements it sent. Calls must not overlap (turns are run one at a time). */
export async function record<T>(fn: () => Promise<T>): Promise<{ value: T; statements: Statement[] }> {
  if (recorder.recording) throw new Error("record() calls must not overlap");
  recorder.statements = [];
  recorder.recording = true;
  try {
    const value = await fn();
    return { value, statements: recorder.statements };
  } finally {
    recorder.recording = false;
  }
}

function delegate<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof T];
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
}

function log(
  query: SqlQuery,
  kind: Statement["kind"],
  rows: number,
  inTransaction: boolean,
  started: number,
) {
  if (!recorder.recording) return;
  recorder.statements.push({
    sql: query.sql,
    kind,
    rows,
    inTransaction,
    at: started,
    ms: performance.now() - started,
    args: query.args,
    argTypes: query.argTypes,
  });
}

type Queryable = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

function counting<T extends Queryable>(target: T, inTransaction: boolean): Partial<T> {
  return {
    async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
      const started = performance.now();
      const result = await target.queryRaw(query);
      log(query, "query", result.rows.length, inTransaction, started);
      return result;
    },
    async executeRaw(query: SqlQuery): Promise<number> {
      const started = performance.now();
      const changed = await target.executeRaw(query);
      log(query, "execute", changed, inTransaction, started);
      return changed;
    },
  } as Partial<T>;
}

function wrapTransaction(tx: Transaction): Transaction {
  return delegate(tx, counting(tx, true));
}

function wrapAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  recorder.adapter = adapter;
  recorder.connects++;
  return delegate(adapter, {
    ...counting(adapter, false),
    async startTransaction(isolationLevel) {
      // BEGIN is sent by the adapter itself (SQLite: prepare("BEGIN"); PostgreSQL: executeRaw on the pooled
      // connection before we can wrap it): count it here as one statement.
      const started = performance.now();
      const tx = await adapter.startTransaction(isolationLevel);
      log({ sql: "BEGIN", args: [], argTypes: [] }, "execute", 0, true, started);
      return wrapTransaction(tx);
    },
  });
}

let installed = false;

/** Instruments every adapter the stock factories create from now on in this process. Idempotent. */
export function instrumentDriverAdapters(): void {
  if (installed) return;
  installed = true;
  for (const factory of [PrismaBetterSqlite3, PrismaPg]) {
    const proto = factory.prototype as { connect(): Promise<SqlDriverAdapter> };
    const original = proto.connect;
    proto.connect = async function connect(this: unknown) {
      return wrapAdapter(await original.call(this));
    };
  }
}

// --------------------------------------------------------------------------------------------- query plans

export interface PlanStep {
  detail: string;
  /** True for a full scan of a table (not an index search). */
  fullScan: boolean;
  table?: string;
}

function isPlannable(sql: string): boolean {
  return /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);
}

/** SQLite EXPLAIN QUERY PLAN, through the same adapter (so arguments are bound exactly as for the query). */
async function sqlitePlan(adapter: SqlDriverAdapter, statement: Statement): Promise<PlanStep[]> {
  const result = await adapter.queryRaw({
    sql: `EXPLAIN QUERY PLAN ${statement.sql}`,
    args: statement.args,
    argTypes: statement.argTypes,
  });
  const detailIndex = result.columnNames.indexOf("detail");
  return result.rows.map((row) => {
    const detail = String(row[detailIndex]);
    const scan = /^SCAN (\S+)/.exec(detail);
    // "SCAN t USING [COVERING] INDEX" walks a whole index: still a full scan of the table's rows.
    return { detail, fullScan: Boolean(scan), ...(scan?.[1] ? { table: scan[1].replace(/"/g, "") } : {}) };
  });
}

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PgPlanNode[];
}

async function postgresPlan(adapter: SqlDriverAdapter, statement: Statement): Promise<PlanStep[]> {
  const result = await adapter.queryRaw({
    sql: `EXPLAIN (FORMAT JSON) ${statement.sql}`,
    args: statement.args,
    argTypes: statement.argTypes,
  });
  const raw = result.rows[0]?.[0];
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: PgPlanNode }[];
  const steps: PlanStep[] = [];
  const walk = (node: PgPlanNode) => {
    const relation = node["Relation Name"];
    const index = node["Index Name"];
    steps.push({
      detail: `${node["Node Type"]}${relation ? ` on ${relation}` : ""}${index ? ` using ${index}` : ""}`,
      fullScan: node["Node Type"] === "Seq Scan",
      ...(relation ? { table: relation } : {}),
    });
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const entry of doc) walk(entry.Plan);
  return steps;
}

/** The plan of each distinct plannable statement, run on the instrumented connection with the same arguments. */
export async function explainStatements(
  dialect: "sqlite" | "postgresql",
  statements: Statement[],
): Promise<{ sql: string; steps: PlanStep[] }[]> {
  const adapter = recorder.adapter;
  if (!adapter) throw new Error("No instrumented connection to explain on");
  const seen = new Set<string>();
  const plans: { sql: string; steps: PlanStep[] }[] = [];
  for (const statement of statements) {
    if (!isPlannable(statement.sql) || seen.has(statement.sql)) continue;
    seen.add(statement.sql);
    const steps =
      dialect === "sqlite" ? await sqlitePlan(adapter, statement) : await postgresPlan(adapter, statement);
    plans.push({ sql: statement.sql, steps });
  }
  return plans;
}
