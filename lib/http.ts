import "server-only";
import { ZodError, type z } from "zod";
import { admission } from "@/lib/admission";
import { type CurrentUser, requireAdmin, requireUser } from "@/lib/auth/session";
import { isStorageError } from "@/lib/db/errors";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { assertSameOrigin } from "@/lib/security/csrf";
import { findUnstorable, hasNul, unstorableMessage } from "@/lib/security/text";

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
    const retryAfter = (e.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    const headers = typeof retryAfter === "number" ? { "retry-after": String(retryAfter) } : undefined;
    return Response.json(e.toJSON(), { status: e.status, headers });
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
 * The one wrapper for route handlers: refuses cross-site writes (403 csrf), authenticates and authorizes before
 * the handler runs, and turns every thrown error into `{ error: { code, message } }` without leaking internals.
 * Requests are admitted one per turn of the event loop (lib/admission.ts), so a burst cannot stall open streams.
 */
export function route<P = Record<string, never>, A extends Access = "user">(
  access: A,
  handler: (args: HandlerArgs<P, A>) => Promise<Response>,
) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    await admission();
    try {
      assertSameOrigin(req, { allowedOrigins: env.ALLOWED_ORIGINS, publicUrl: env.NEXTAUTH_URL });
      const user =
        access === "public" ? null : access === "admin" ? await requireAdmin() : await requireUser();
      const params = ctx?.params ? await ctx.params : ({} as P);
      assertStorableAddress(req, params);
      return await handler({ req, params, user: user as HandlerArgs<P, A>["user"] });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/**
 * A NUL in the path or the query (decoded) is a 400 before any handler runs: no id or search term holds one, and
 * PostgreSQL would refuse it as a query parameter (docs/decisions/023-input-boundary.md).
 */
function assertStorableAddress(req: Request, params: unknown): void {
  const url = new URL(req.url);
  const values = [
    ...Object.values((params ?? {}) as Record<string, unknown>).flat(),
    ...url.searchParams.keys(),
    ...url.searchParams.values(),
  ];
  if (values.some((v) => typeof v === "string" && hasNul(v))) {
    throw new AppError("bad_request", "The address contains a NUL character (%00).");
  }
}

/** A parsed body that holds a NUL (PostgreSQL cannot store it) or is nested absurdly deep: 422 naming the field. */
function assertStorableJson(body: unknown): void {
  const found = findUnstorable(body);
  if (found) {
    const message = unstorableMessage(found);
    throw new AppError("validation_failed", message, { details: [{ path: found.path, message }] });
  }
}

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`, {
    details: { maxBytes: limit },
  });
}

/**
 * The body as text, read as a stream and abandoned as soon as it passes `limit` bytes (413), so an oversize
 * upload costs at most `limit` bytes of memory. A declared Content-Length over the limit is refused unread.
 */
export async function readBodyText(req: Request, limit: number = env.MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit, () => tooLarge(limit))).toString("utf8");
}

/**
 * Bytes of a refused body read and dropped before the 413 goes out. A server that answers while the client is
 * still sending closes a connection with unread data, which resets it: the client never sees the answer. Up to
 * this much is drained (nothing is kept); beyond it the connection is cut.
 */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, already: number): Promise<void> {
  let drained = already;
  try {
    while (drained <= MAX_DRAIN_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to answer.
  }
}

/** The body's bytes, read the same way; `tooLarge` makes the 413 the caller wants to say. */
export async function readBodyBytes(req: Request, limit: number, tooLarge: () => AppError): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "");
  const reader = req.body?.getReader();
  if (Number.isFinite(declared) && declared > limit) {
    if (reader) await drain(reader, 0);
    throw tooLarge();
  }
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await drain(reader, size);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and validates a JSON body of at most MAX_BODY_BYTES (413 beyond); a malformed body is a 400 with a
 * code, never an exception.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const text = await readBodyText(req);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "The request body must be valid JSON.");
  }
  assertStorableJson(body);
  return schema.parse(body);
}

/**
 * The one file in the multipart field `file` of an upload: a request that is not multipart is a 415, a body over
 * `limit` bytes a 413 (`tooLarge`, read no further), anything but exactly one file a 400 (`oneFile` says so).
 */
export async function readMultipartFile(
  req: Request,
  { limit, tooLarge, oneFile }: { limit: number; tooLarge: () => AppError; oneFile: string },
): Promise<File> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new AppError(
      "unsupported_media_type",
      "Send the file as multipart/form-data, in a field named `file`.",
    );
  }
  const body = await readBodyBytes(req, limit, tooLarge);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("bad_request", "The upload could not be read as multipart/form-data.");
  }
  const files = form.getAll("file");
  const file = files[0];
  if (files.length !== 1 || !(file instanceof File)) throw new AppError("bad_request", oneFile);
  return file;
}
