import { AppError } from "@/lib/errors";

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
