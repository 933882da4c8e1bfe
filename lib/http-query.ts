import { AppError } from "@/lib/errors";

/**
 * GET /api/search answers with the results array itself; the next page's cursor travels in this header (absent on
 * the last page). Read by the browser too.
 */
export const NEXT_CURSOR_HEADER = "x-next-cursor";

/** Reads an optional integer query parameter within bounds; anything else is a 400 with a code. */
export function intParam(
  url: URL,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback?: number },
) {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new AppError("bad_request", `${name} must be an integer from ${min} to ${max}.`);
  }
  return value;
}

/** Reads an optional `true`/`false` query parameter (absent: false); anything else is a 400 with a code. */
export function boolParam(url: URL, name: string): boolean {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw new AppError("bad_request", `${name} must be true or false.`);
}
