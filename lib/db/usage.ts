import "server-only";
import { env } from "@/lib/env";
import type { UsageRow } from "@/lib/usage/series";
import { databaseKind, db, type TxOption } from "./client";

// Token usage of answers (assistant messages with token counts), summed in the database by one grouped statement:
// no message row leaves it. Days are UTC calendar days.

interface UserModelUsage {
  userId: string;
  email: string;
  name: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  answers: number;
}

/** Answers written before any model was recorded. */
const UNKNOWN_MODEL = "unknown";

const DAY = 24 * 60 * 60 * 1000;

/** Midnight UTC `days - 1` days before `now`: the first day of a window of `days` calendar days ending today. */
export function windowStart(days: number, now = new Date()): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY);
}

function sql() {
  // SQLite stores DateTime as ISO text (or milliseconds when written by other tools); both read as a date.
  return databaseKind(env.DATABASE_URL) === "sqlite"
    ? {
        day: `CASE WHEN typeof(m."createdAt") IN ('integer', 'real') THEN date(m."createdAt" / 1000, 'unixepoch') ELSE date(m."createdAt") END`,
        p: (_i: number) => "?",
      }
    : { day: `to_char(m."createdAt", 'YYYY-MM-DD')`, p: (i: number) => `$${i}` };
}

type Raw = Record<string, unknown>;
const num = (v: unknown) => Number(v ?? 0);

/** The user's usage per day and model since `since` (oldest day first). */
export async function usageByDay(
  { userId, since }: { userId: string; since: Date },
  { tx = db }: TxOption = {},
): Promise<UsageRow[]> {
  const { day, p } = sql();
  const rows = await tx.$queryRawUnsafe<Raw[]>(
    `SELECT ${day} AS "day", COALESCE(m."model", '${UNKNOWN_MODEL}') AS "model",
            SUM(COALESCE(m."promptTokens", 0)) AS "promptTokens",
            SUM(COALESCE(m."completionTokens", 0)) AS "completionTokens", COUNT(*) AS "answers"
     FROM "ChatMessage" m JOIN "ChatSession" s ON s."id" = m."sessionId"
     WHERE s."userId" = ${p(1)} AND m."role" = 'assistant' AND m."createdAt" >= ${p(2)}
       AND (m."promptTokens" IS NOT NULL OR m."completionTokens" IS NOT NULL)
     GROUP BY 1, 2 ORDER BY 1, 2`,
    userId,
    since,
  );
  return rows.map((r) => ({
    day: String(r.day),
    model: String(r.model),
    promptTokens: num(r.promptTokens),
    completionTokens: num(r.completionTokens),
    answers: num(r.answers),
  }));
}

/** Every user's usage per model since `since`, the heaviest first (at most `limit` rows). */
export async function usageByUserAndModel(
  { since, limit = 200 }: { since: Date; limit?: number },
  { tx = db }: TxOption = {},
): Promise<UserModelUsage[]> {
  const { p } = sql();
  const rows = await tx.$queryRawUnsafe<Raw[]>(
    `SELECT u."id" AS "userId", u."email", u."name", COALESCE(m."model", '${UNKNOWN_MODEL}') AS "model",
            SUM(COALESCE(m."promptTokens", 0)) AS "promptTokens",
            SUM(COALESCE(m."completionTokens", 0)) AS "completionTokens", COUNT(*) AS "answers"
     FROM "ChatMessage" m JOIN "ChatSession" s ON s."id" = m."sessionId" JOIN "User" u ON u."id" = s."userId"
     WHERE m."role" = 'assistant' AND m."createdAt" >= ${p(1)}
       AND (m."promptTokens" IS NOT NULL OR m."completionTokens" IS NOT NULL)
     GROUP BY u."id", u."email", u."name", 4
     ORDER BY SUM(COALESCE(m."promptTokens", 0) + COALESCE(m."completionTokens", 0)) DESC, u."email", 4
     LIMIT ${p(2)}`,
    since,
    limit,
  );
  return rows.map((r) => ({
    userId: String(r.userId),
    email: String(r.email),
    name: String(r.name),
    model: String(r.model),
    promptTokens: num(r.promptTokens),
    completionTokens: num(r.completionTokens),
    answers: num(r.answers),
  }));
}
