import { z } from "zod";
import { AppError } from "@/lib/errors";

export const updateUserSchema = z
  .object({
    role: z.enum(["USER", "ADMIN"], { message: "role must be USER or ADMIN" }).optional(),
    disabled: z.boolean({ message: "disabled must be true or false" }).optional(),
  })
  .strict()
  .refine((v) => v.role !== undefined || v.disabled !== undefined, {
    message: "Give a role or disabled to change.",
  });

export const MAX_QUERY_CHARS = 200;

/** The optional search text of a list (`?q=`), trimmed; too long is a 400 with a code. */
export function searchParam(url: URL): string | undefined {
  const q = url.searchParams.get("q")?.trim();
  if (!q) return undefined;
  if (q.length > MAX_QUERY_CHARS) {
    throw new AppError("bad_request", `q must be at most ${MAX_QUERY_CHARS} characters.`);
  }
  return q;
}
