import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { databaseKind, db, POSTGRES_SESSION_LIMITS, TRANSACTION_OPTIONS } from "./client";
import { isStorageError } from "./errors";

// A request cannot hold the database for long (docs/decisions/023-input-boundary.md): an interactive transaction
// that does not finish is rolled back after TRANSACTION_OPTIONS.timeout and its write lock released; PostgreSQL
// sessions carry their own statement and idle-in-transaction limits.

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

describe(`time bounds on the database (${kind})`, () => {
  it(
    "a transaction that does not finish is rolled back: its write is gone, and others write again",
    async () => {
      const email = `held-${randomUUID()}@example.test`;
      const outcome = await db
        .$transaction(async (tx) => {
          await tx.user.create({ data: { email, name: "Held", passwordHash: "x" } });
          // Keep the transaction open (as a stuck request would) until Prisma has closed it.
          for (;;) {
            const open = await tx.user.count({ where: { email } }).then(
              () => true,
              () => false,
            );
            if (!open) return;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        })
        .then(
          () => "committed",
          (e: unknown) => (isStorageError(e) ? "rolled back" : `other: ${String(e)}`),
        );
      expect(outcome).toBe("rolled back");
      expect(await db.user.count({ where: { email } })).toBe(0);
      const after = await db.user.create({ data: { email, name: "After", passwordHash: "x" } });
      expect(after.name).toBe("After");
    },
    TRANSACTION_OPTIONS.timeout + 10_000,
  );

  it.runIf(kind === "postgresql")(
    "every PostgreSQL session carries the statement and idle limits",
    async () => {
      const [row] = await db.$queryRaw<{ statement: string; idle: string }[]>`
      SELECT current_setting('statement_timeout') AS "statement",
             current_setting('idle_in_transaction_session_timeout') AS "idle"`;
      expect(row).toEqual({
        statement: `${POSTGRES_SESSION_LIMITS.statement_timeout / 1000}s`,
        idle: `${POSTGRES_SESSION_LIMITS.idle_in_transaction_session_timeout / 1000}s`,
      });
      // Inside a transaction too (a pooled connection keeps them).
      const inside = await db.$transaction(
        (tx) => tx.$queryRaw<{ s: string }[]>`SELECT current_setting('statement_timeout') AS "s"`,
      );
      expect(inside[0]?.s).toBe(`${POSTGRES_SESSION_LIMITS.statement_timeout / 1000}s`);
    },
  );
});
