import { AsyncLocalStorage } from "node:async_hooks";
import type { SqlDriverAdapter, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";

// SQLite has one connection per client, and Prisma's better-sqlite3 adapter only makes transactions wait for each
// other: a statement sent outside a transaction while another request's interactive transaction was open (between
// its statements, while its callback awaited) ran inside that transaction — it read rows that were never committed,
// and its write, reported done, was undone when that transaction rolled back (docs/decisions/044-connection-gate.md).
// The gate makes such a write wait until the transaction has ended; such a read goes to a second, read-only
// connection, which sees what is committed (WAL lets it read while the first connection writes). The transaction's
// own work passes: the statements of its callback, which withTransaction runs inside the transaction's scope (a
// statement its code sends to `db` instead of `tx` ran inside it before, and still does; making it wait would
// deadlock the transaction).

/** The transaction whose callback is running: set by withTransaction (lib/db/transaction.ts). */
export const transactionScope = new AsyncLocalStorage<object>();

/** A FIFO lock on the connection: held by one transaction from its BEGIN to its end, or by one waiting statement. */
export class ConnectionGate {
  private holder: { scope: object | undefined } | null = null;
  private readonly queue: { scope: object | undefined; resolve: () => void }[] = [];

  get held(): boolean {
    return this.holder !== null;
  }

  /** Whether a statement of `scope` may run on the connection now: nothing holds it, or its own transaction does. */
  passes(scope: object | undefined): boolean {
    return this.holder === null || (scope !== undefined && this.holder.scope === scope);
  }

  /** Takes the gate for `scope` (undefined: a statement), after everyone before. */
  async enter(scope: object | undefined): Promise<void> {
    if (this.holder === null) {
      this.holder = { scope };
      return;
    }
    await new Promise<void>((resolve) => this.queue.push({ scope, resolve }));
  }

  /** Hands the gate to the next in line (taken for it here, so nobody can step in before it runs). */
  leave(): void {
    const next = this.queue.shift();
    this.holder = next ? { scope: next.scope } : null;
    next?.resolve();
  }

  /**
   * Runs `work` holding the gate from start to end, after everyone before: for work that does not finish
   * synchronously on this connection (another connection's checkpoint), during which no transaction may begin here.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    await this.enter(undefined);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  /**
   * Runs a statement outside any transaction: at once when the gate is free (the driver runs it synchronously,
   * nothing can begin meanwhile) or when the open transaction is the caller's own (`scope`), else once it is free.
   */
  async run<T>(scope: object | undefined, statement: () => Promise<T>): Promise<T> {
    if (this.passes(scope)) return statement();
    return this.hold(statement);
  }
}

/** A statement that only reads: what Prisma sends for a query, and the app's SELECTs. */
const READ = /^\s*SELECT\b/i;

/**
 * The adapter with its connection behind `gate`: a transaction holds the gate from before its BEGIN until its
 * commit or rollback (Prisma also rolls back a transaction it gave up waiting for, which releases the gate); a
 * statement outside it waits for it to end, except a read, which `reader` (a read-only connection to the same
 * database, when there is one) answers at once with what is committed.
 */
export function gatedAdapter(
  inner: SqlDriverAdapter,
  {
    reader = null,
    gate = new ConnectionGate(),
  }: { reader?: SqlDriverAdapter | null; gate?: ConnectionGate } = {},
): SqlDriverAdapter {
  const scope = () => transactionScope.getStore();
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: SqlQuery) => {
      const mine = scope();
      if (reader && !gate.passes(mine) && READ.test(query.sql)) return reader.queryRaw(query);
      return gate.run(mine, () => inner.queryRaw(query));
    },
    executeRaw: (query: SqlQuery) => gate.run(scope(), () => inner.executeRaw(query)),
    executeScript: (script: string) => inner.executeScript(script),
    ...(inner.getConnectionInfo ? { getConnectionInfo: inner.getConnectionInfo.bind(inner) } : {}),
    dispose: async () => {
      await reader?.dispose();
      await inner.dispose();
    },
    async startTransaction(isolationLevel) {
      await gate.enter(scope());
      let tx: Transaction;
      try {
        tx = await inner.startTransaction(isolationLevel);
      } catch (error) {
        gate.leave();
        throw error;
      }
      let open = true;
      const end = (finish: () => Promise<void>) => async () => {
        try {
          await finish();
        } finally {
          if (open) {
            open = false;
            gate.leave();
          }
        }
      };
      return endingWith(
        tx,
        end(() => tx.commit()),
        end(() => tx.rollback()),
      );
    },
  };
}

/** `tx` with its commit and rollback replaced (its other methods called on it, for its private fields). */
function endingWith(
  tx: Transaction,
  commit: () => Promise<void>,
  rollback: () => Promise<void>,
): Transaction {
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === "commit") return commit;
      if (prop === "rollback") return rollback;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
