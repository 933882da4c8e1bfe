import { z } from "zod";
import { AppError } from "@/lib/errors";

// Input of the long-term memory management API (/api/memories, /api/me/settings).

export const MAX_FACT_CHARS = 500;

/** Furthest a user may set a fact's expiry (ten years). */
const MAX_EXPIRY_MS = 3650 * 24 * 60 * 60 * 1000;

/** `{ text?, expiresAt? }` edits; `{ status: "active", text? }` accepts a suggestion (with the text corrected). */
export const updateFactSchema = z
  .object({
    status: z
      .literal("active", { message: 'status can only be "active" (dismiss a suggestion with DELETE)' })
      .optional(),
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
    // Moves the fact into one of the user's projects, or to global (null).
    projectId: z
      .string({ message: "projectId must be a project id or null" })
      .min(1)
      .max(64)
      .nullable()
      .optional(),
  })
  .strict()
  .refine(
    (v) =>
      v.status !== undefined ||
      v.text !== undefined ||
      v.expiresAt !== undefined ||
      v.projectId !== undefined,
    { message: "Send text, expiresAt, projectId, or status: active." },
  );

export const userSettingsSchema = z
  .object({
    longTermMemory: z.boolean({ message: "longTermMemory must be true or false" }).optional(),
    memoryExtraction: z
      .enum(["off", "suggest", "auto"], { message: "memoryExtraction must be off, suggest or auto" })
      .optional(),
  })
  .strict()
  .refine((s) => Object.keys(s).length > 0, { message: "Name at least one setting to change." });

/** `?include=superseded` adds the replaced facts; any other value is a 400. */
export function includeSupersededParam(url: URL): boolean {
  const include = url.searchParams.get("include");
  if (include === null || include === "") return false;
  if (include === "superseded") return true;
  throw new AppError("bad_request", "include can only be superseded.");
}

/** `?status=active|suggested` (absent: active, or with `messageId` both); any other value is a 400. */
export function statusParam(url: URL): "active" | "suggested" | undefined {
  const status = url.searchParams.get("status");
  if (status === null || status === "") return undefined;
  if (status === "active" || status === "suggested") return status;
  throw new AppError("bad_request", "status can only be active or suggested.");
}
