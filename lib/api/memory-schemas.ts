import { z } from "zod";
import { AppError } from "@/lib/errors";

// Input of the long-term memory management API (/api/memories, /api/me/settings).

export const MAX_FACT_CHARS = 500;

/** Furthest a user may set a fact's expiry (ten years). */
const MAX_EXPIRY_MS = 3650 * 24 * 60 * 60 * 1000;

export const updateFactSchema = z
  .object({
    text: z
      .string({ message: "text must be a string" })
      .trim()
      .min(1, "A memory cannot be empty; delete it instead.")
      .max(MAX_FACT_CHARS, `A memory can have at most ${MAX_FACT_CHARS} characters.`)
      .optional(),
    expiresAt: z.iso
      .datetime({ offset: true, message: "expiresAt must be an ISO 8601 date and time, or null" })
      .transform((v) => new Date(v))
      .refine((d) => d.getTime() > Date.now(), "expiresAt must be in the future; delete the memory instead.")
      .refine((d) => d.getTime() < Date.now() + MAX_EXPIRY_MS, "expiresAt can be at most ten years ahead.")
      .nullable()
      .optional(),
  })
  .strict()
  .refine((v) => v.text !== undefined || v.expiresAt !== undefined, "Send text, expiresAt, or both.");

export const userSettingsSchema = z
  .object({
    longTermMemory: z.boolean({ message: "longTermMemory must be true or false" }),
  })
  .strict();

/** `?include=superseded` adds the replaced facts; any other value is a 400. */
export function includeSupersededParam(url: URL): boolean {
  const include = url.searchParams.get("include");
  if (include === null || include === "") return false;
  if (include === "superseded") return true;
  throw new AppError("bad_request", "include can only be superseded.");
}
