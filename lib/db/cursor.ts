import { AppError } from "@/lib/errors";

// Pagination, one way for every list: a page is `take: limit + 1` rows after the cursor in the list's order, the
// extra row only saying whether there is a next page, so a page costs the same however deep it is. A cursor that
// travels through a URL has one format whatever the list: the values of its position as a JSON array, base64url —
// (time, id) for the lists newest first, the email for users, the offset for the ranked search results.

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

type Value = string | number;

function encodeValues(values: readonly Value[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** The values of a cursor, when it is one (an array of strings without NUL and of numbers); else `invalid()`. */
function decodeValues(raw: string, invalid: () => AppError): unknown[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const valid = (v: unknown) => typeof v === "number" || (typeof v === "string" && !v.includes("\u0000"));
  if (!Array.isArray(values) || !values.every(valid)) throw invalid();
  return values;
}

const badCursor = () =>
  new AppError("bad_request", "The cursor is not valid; start again from the first page.");

/** A (time, id) position in a list newest first. */
export function encodeCursor(cursor: Cursor | null): string | null {
  return cursor ? encodeValues([cursor.at.toISOString(), cursor.id]) : null;
}

export function decodeCursor(raw: string | null | undefined): Cursor | undefined {
  if (!raw) return undefined;
  const [iso, id] = decodeValues(raw, badCursor);
  const at = new Date(typeof iso === "string" ? iso : Number.NaN);
  if (typeof id !== "string" || Number.isNaN(at.getTime())) throw badCursor();
  return { at, id };
}

/** A position in a user's conversation list, whose pinned conversations come first (`pinned`: in that part). */
export interface SessionListCursor extends Cursor {
  pinned: boolean;
}

export function encodeSessionListCursor(cursor: SessionListCursor | null): string | null {
  return cursor ? encodeValues([cursor.at.toISOString(), cursor.id, cursor.pinned ? 1 : 0]) : null;
}

export function decodeSessionListCursor(raw: string | null | undefined): SessionListCursor | undefined {
  if (!raw) return undefined;
  const [iso, id, pinned] = decodeValues(raw, badCursor);
  const at = new Date(typeof iso === "string" ? iso : Number.NaN);
  if (typeof id !== "string" || Number.isNaN(at.getTime()) || (pinned !== 0 && pinned !== 1))
    throw badCursor();
  return { at, id, pinned: pinned === 1 };
}

/** A position in a list ordered by one unique text key (users by email). */
export function encodeKeyCursor(key: string): string {
  return encodeValues([key]);
}

export function decodeKeyCursor(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const [key] = decodeValues(raw, badCursor);
  if (typeof key !== "string") throw badCursor();
  return key;
}

/**
 * A position in a ranked list that is recomputed per page (search results): how many results come before it,
 * at most `max`. Its own message: a search is started again, not paged from the first page.
 */
export function encodeOffsetCursor(offset: number): string {
  return encodeValues([offset]);
}

export function decodeOffsetCursor(raw: string | null | undefined, max: number): number {
  if (!raw) return 0;
  const invalid = () => new AppError("bad_request", "The cursor is not valid; start the search again.");
  const [offset] = decodeValues(raw, invalid);
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0 || offset > max) throw invalid();
  return offset;
}
