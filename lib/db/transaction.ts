import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { databaseKind, db, TRANSACTION_OPTIONS, type Tx, type TxOption } from "./client";
import { transactionScope } from "./connection-gate";
import { registerTransaction } from "./sql";

// The one way to run work in a transaction. No `import "server-only"`, like client.ts: scripts and tests use it.

export interface TransactionOptions {
  /**
   * `serializable`: a serialization failure (PostgreSQL 40001) is retried twice, then refused with a 409; the work
   * must be safe to run again. Default: the database's own level (read committed / SQLite's one writer).
   */
  isolation?: "serializable";
  /** Overrides TRANSACTION_OPTIONS for work known to run longer (an import, a retention round's lock). */
  maxWait?: number;
  timeout?: number;
}

/**
 * The timeout of a cascading deletion (a conversation or an account): 100 000 messages cascade into every table
 * that points at them (search index, embeddings, fact versions, contexts), seconds on a loaded machine.
 */
export const CASCADE_DELETE_TIMEOUT_MS = 120_000;

/** Runs `work` in one interactive transaction on the app's client; a throw rolls all of it back. */
export async function withTransaction<T>(
  work: (tx: Tx) => Promise<T>,
  {
    isolation,
    maxWait = TRANSACTION_OPTIONS.maxWait,
    timeout = TRANSACTION_OPTIONS.timeout,
  }: TransactionOptions = {},
): Promise<T> {
  // Prisma's timeout starts once the transaction has begun: counted from here, `until` is never later than it.
  const registered = (until: number) => (tx: Tx) => {
    registerTransaction(tx, db, until);
    return work(tx);
  };
  if (isolation !== "serializable") {
    return inScope(() => db.$transaction(registered(performance.now() + timeout), { maxWait, timeout }));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await inScope(() =>
        db.$transaction(registered(performance.now() + timeout), {
          maxWait,
          timeout,
          isolationLevel: "Serializable",
        }),
      );
    } catch (e) {
      if (!isWriteConflict(e)) throw e;
      if (attempt >= 3) {
        throw new AppError(
          "conflict",
          "Accounts were changed by someone else at the same moment. Try again.",
          {
            cause: e,
          },
        );
      }
    }
  }
}

/**
 * SQLite: the transaction's callback runs in its own scope, so that statements sent outside it wait for it to end
 * and the callback's own do not (connection-gate.ts). PostgreSQL gives each transaction its own connection.
 */
function inScope<T>(start: () => Promise<T>): Promise<T> {
  return databaseKind(env.DATABASE_URL) === "sqlite" ? transactionScope.run({}, start) : start();
}

/** `work` in the caller's transaction when there is one, else in its own: for queries of several statements. */
export function inTx<T>({ tx }: TxOption, work: (tx: Tx) => Promise<T>): Promise<T> {
  return tx ? work(tx) : withTransaction(work);
}

/**
 * A serialization failure (PostgreSQL 40001). Prisma reports it as P2034 from some paths and, from inside an
 * interactive transaction, as the driver adapter's error whose cause has kind `TransactionWriteConflict`.
 */
function isWriteConflict(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  if ("code" in e && e.code === "P2034") return true;
  const cause =
    "cause" in e ? (e.cause as { kind?: unknown; originalCode?: unknown } | undefined) : undefined;
  return cause?.kind === "TransactionWriteConflict" || cause?.originalCode === "40001";
}
