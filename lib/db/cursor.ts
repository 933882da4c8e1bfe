import { AppError } from "@/lib/errors";

export interface Cursor {
  updatedAt: Date;
  id: string;
}

export function encodeCursor(cursor: Cursor | null): string | null {
  if (!cursor) return null;
  return Buffer.from(JSON.stringify([cursor.updatedAt.toISOString(), cursor.id])).toString("base64url");
}

export function decodeCursor(raw: string | null | undefined): Cursor | undefined {
  if (!raw) return undefined;
  try {
    const [iso, id] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as [string, string];
    const updatedAt = new Date(iso);
    if (typeof id !== "string" || Number.isNaN(updatedAt.getTime())) throw new Error("bad cursor");
    return { updatedAt, id };
  } catch {
    throw new AppError("bad_request", "The cursor is not valid; start again from the first page.");
  }
}
