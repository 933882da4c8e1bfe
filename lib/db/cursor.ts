import { AppError } from "@/lib/errors";

// Keyset pagination, one way for every list: a page is `take: limit + 1` rows after the cursor in the list's
// order, the extra row only saying whether there is a next page. A page costs the same however deep it is.

/** A position in a list ordered newest first on (a timestamp, id); `at` is that row's timestamp. */
export interface Cursor {
  at: Date;
  id: string;
}

/**
 * findMany arguments of one page ordered by (`key` desc, id desc) after `cursor`. The `key <= at` conjunct lets
 * the database start its walk of a (key, id) index at the cursor instead of filtering from the top; the `OR`
 * breaks ties on the id.
 */
export function keysetArgs<K extends string>({
  key,
  cursor,
  limit,
}: {
  key: K;
  cursor?: Cursor;
  limit: number;
}) {
  const at = (filter: { lte: Date } | { lt: Date }) => ({ [key]: filter }) as Record<K, typeof filter>;
  return {
    where: cursor
      ? { AND: [at({ lte: cursor.at }), { OR: [at({ lt: cursor.at }), { id: { lt: cursor.id } }] }] }
      : {},
    orderBy: [{ [key]: "desc" } as Record<K, "desc">, { id: "desc" as const }],
    take: limit + 1,
  };
}

/** Splits the rows of a `take: limit + 1` query into the page and the cursor of the next one (null at the end). */
export function keysetPage<Row, C>({
  rows,
  limit,
  cursorOf,
}: {
  rows: Row[];
  limit: number;
  cursorOf: (last: Row) => C;
}): { page: Row[]; nextCursor: C | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

export function encodeCursor(cursor: Cursor | null): string | null {
  if (!cursor) return null;
  return Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString("base64url");
}

export function decodeCursor(raw: string | null | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const [iso, id] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as [string, string];
    const at = new Date(iso);
    if (typeof id !== "string" || id.includes("\u0000") || Number.isNaN(at.getTime()))
      throw new Error("bad cursor");
    return { at, id };
  } catch {
    throw badCursor();
  }
}

export const badCursor = () =>
  new AppError("bad_request", "The cursor is not valid; start again from the first page.");
