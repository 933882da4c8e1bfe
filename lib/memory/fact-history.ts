// Pure parts of fact history and expiry (docs/decisions/030-fact-history.md).

export type FactChange = "created" | "edited" | "replaced" | "accepted" | "moved";
export type FactChangeBy = "user" | "model";

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a fact learned at `now` expires, from the model's arguments: a date wins over a number of days. */
export function expiryOf({
  expiresAt,
  days,
  now,
}: {
  expiresAt?: Date | undefined;
  days?: number | undefined;
  now: Date;
}): Date | null {
  if (expiresAt) return expiresAt;
  return days ? new Date(now.getTime() + days * DAY_MS) : null;
}
