import "server-only";
import { ZodError, type z } from "zod";
import { type CurrentUser, requireAdmin, requireUser } from "@/lib/auth/session";
import { isStorageError } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";

type Access = "public" | "user" | "admin";
type Ctx<P> = { params: Promise<P> };
type HandlerArgs<P, A extends Access> = {
  req: Request;
  params: P;
  user: A extends "public" ? null : CurrentUser;
};

export function errorResponse(e: unknown): Response {
  if (e instanceof AppError) {
    if (e.status >= 500) console.error(`[api] ${e.code}: ${e.message}`, e.cause ?? "");
    return Response.json(e.toJSON(), { status: e.status });
  }
  if (e instanceof ZodError) {
    const details = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const message = details[0]?.message ?? "Invalid input.";
    return Response.json({ error: { code: "validation_failed", message, details } }, { status: 422 });
  }
  if (isStorageError(e)) {
    console.error("[api] storage error", e);
    return Response.json(
      {
        error: {
          code: "storage_error",
          message: "The database is not available right now. Nothing was lost; try again.",
        },
      },
      { status: 503 },
    );
  }
  console.error("[api] unexpected error", e);
  return Response.json(
    {
      error: {
        code: "internal_error",
        message: "Something went wrong on our side. Nothing was lost; try again.",
      },
    },
    { status: 500 },
  );
}

/**
 * The one wrapper for route handlers: authenticates and authorizes before the handler runs,
 * and turns every thrown error into `{ error: { code, message } }` without leaking internals.
 */
export function route<P = Record<string, never>, A extends Access = "user">(
  access: A,
  handler: (args: HandlerArgs<P, A>) => Promise<Response>,
) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    try {
      const user =
        access === "public" ? null : access === "admin" ? await requireAdmin() : await requireUser();
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await handler({ req, params, user: user as HandlerArgs<P, A>["user"] });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** Reads and validates a JSON body; a malformed body is a 400 with a code, never an exception. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new AppError("bad_request", "The request body must be valid JSON.");
  }
  return schema.parse(body);
}
