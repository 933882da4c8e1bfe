import "server-only";
import { ZodError } from "zod";
import { type ApiKeyUser, authenticateApiKey } from "@/lib/db/api-keys";
import { isStorageError } from "@/lib/db/errors";
import { AppError } from "@/lib/errors";
import { limits } from "@/lib/rate-limit";

// The wrapper for the OpenAI-compatible /v1 routes. Unlike `route()` (lib/http.ts) it authenticates by
// `Authorization: Bearer <key>` alone — cookies are ignored, so there is nothing for a foreign page to ride on and
// the browser CSRF/Origin rule does not apply — and it answers errors in OpenAI's shape
// `{ error: { message, type, param, code } }`, which the official clients turn into their error classes by status.

type Ctx<P> = { params: Promise<P> };

export interface V1Args<P> {
  req: Request;
  params: P;
  user: ApiKeyUser;
}

/** OpenAI's error `type` for a status (the clients dispatch on the status; the type is for people reading it). */
export function openAiErrorType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 409) return "conflict_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

export function openAiError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const extra: Record<string, string> = { ...headers };
  // A turn that is running (409) will not finish sooner because the client asks again: tell the official
  // clients, which retry 409 by default, not to.
  if (status === 409) extra["x-should-retry"] = "false";
  return Response.json(
    { error: { message, type: openAiErrorType(status), param: null, code } },
    { status, headers: extra },
  );
}

/** Any thrown error as an OpenAI error response; internals never leak. */
export function v1ErrorResponse(e: unknown, headers: Record<string, string> = {}): Response {
  if (e instanceof AppError) {
    if (e.status >= 500) console.error(`[v1] ${e.code}: ${e.message}`, e.cause ?? "");
    const retryAfter = (e.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    const h = typeof retryAfter === "number" ? { ...headers, "retry-after": String(retryAfter) } : headers;
    // OpenAI answers an invalid request with 400 (Recall's own API uses 422 for validation).
    const status = e.status === 422 ? 400 : e.status;
    const named = (e.details as { openAiCode?: unknown } | undefined)?.openAiCode;
    const code = typeof named === "string" ? named : e.code === "unauthorized" ? "invalid_api_key" : e.code;
    return openAiError(status, code, e.message, h);
  }
  if (e instanceof ZodError) {
    const issue = e.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return openAiError(400, "invalid_request", `${where}${issue?.message ?? "Invalid request."}`, headers);
  }
  if (isStorageError(e)) {
    console.error("[v1] storage error", e);
    return openAiError(
      503,
      "storage_error",
      "The database is not available right now. Nothing was lost; try again.",
      headers,
    );
  }
  console.error("[v1] unexpected error", e);
  return openAiError(
    500,
    "internal_error",
    "Something went wrong on our side. Nothing was lost; try again.",
    headers,
  );
}

/** The key of `Authorization: Bearer <key>`, or null. */
function bearerKey(req: Request): string | null {
  const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return match?.[1] ?? null;
}

/** The key's user; 401 when the key is missing, unknown, revoked or its account disabled. */
async function requireKeyUser(req: Request): Promise<ApiKeyUser> {
  const key = bearerKey(req);
  if (!key) {
    throw new AppError(
      "unauthorized",
      "Send an API key as `Authorization: Bearer <key>` (create one in Settings → API keys).",
    );
  }
  const user = await authenticateApiKey({ key });
  if (!user) throw new AppError("unauthorized", "This API key is not valid (it may have been revoked).");
  return user;
}

/**
 * Counts one turn against the user's per-minute limit and daily quota — the same limiter, keyed by user, as the
 * web chat (RATE_LIMIT_TURNS_PER_MINUTE, default 60: a script's burst fits). 429 with Retry-After when used up.
 */
export async function assertApiTurnAllowed(userId: string): Promise<void> {
  await limits().assertTurnAllowed(userId);
}

/** Wraps a /v1 handler: authenticates the bearer key and maps every error to OpenAI's shape. */
export function v1Route<P = Record<string, never>>(handler: (args: V1Args<P>) => Promise<Response>) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    try {
      const user = await requireKeyUser(req);
      const params = ctx?.params ? await ctx.params : ({} as P);
      return await handler({ req, params, user });
    } catch (e) {
      return v1ErrorResponse(e);
    }
  };
}
