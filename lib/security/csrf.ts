import { AppError } from "@/lib/errors";

// Cross-site request forgery: every state-changing request must come from one of our own pages (an allowed
// Origin) and carry a JSON body type, which a cross-site <form> or no-cors fetch cannot send. SameSite=Lax cookies
// alone let another port of the same host (same "site") through.

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The writes that must carry a file (POST /api/attachments, POST /api/projects/:id/files) may send
 * multipart/form-data. They still need an allowed Origin — the actual defence, since browsers send Origin on every
 * cross-site POST; the JSON rule is the second one, kept for every other route.
 */
const MULTIPART_PATHS: readonly RegExp[] = [/^\/api\/attachments$/, /^\/api\/projects\/[^/]+\/files$/];

export interface CsrfPolicy {
  /** Extra allowed origins (ALLOWED_ORIGINS), normalised to scheme://host[:port]. */
  allowedOrigins: readonly string[];
  /** The app's public URL (NEXTAUTH_URL), when set. */
  publicUrl?: string;
}

function pathOf(req: Request): string {
  try {
    return new URL(req.url).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/** The request's own origin as the client addressed it: its Host (or X-Forwarded-Host) header. */
function ownHosts(req: Request): string[] {
  const hosts = [req.headers.get("host"), req.headers.get("x-forwarded-host")?.split(",")[0]?.trim()];
  return hosts.filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase());
}

/**
 * Throws AppError("csrf") unless the request is safe (GET/HEAD/OPTIONS), or authenticated by a bearer key alone
 * (no cookies: nothing a foreign page could ride on), or carries an allowed Origin and a JSON content type.
 */
export function assertSameOrigin(req: Request, policy: CsrfPolicy): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const bearer = /^bearer\s/i.test(req.headers.get("authorization") ?? "");
  if (bearer && !req.headers.get("cookie")) return;

  const origin = req.headers.get("origin");
  if (!origin || origin === "null") {
    throw new AppError("csrf", "This request must come from the app's own pages (Origin missing).");
  }
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new AppError("csrf", "This request must come from the app's own pages (Origin invalid).");
  }
  const allowed =
    policy.allowedOrigins.includes(parsed.origin) ||
    (policy.publicUrl !== undefined && new URL(policy.publicUrl).origin === parsed.origin) ||
    ownHosts(req).includes(parsed.host.toLowerCase());
  if (!allowed) throw new AppError("csrf", "This request must come from the app's own pages.");

  // Bodiless writes (DELETE) need no type; anything with a body must be JSON.
  const hasBody =
    req.method.toUpperCase() === "POST" ||
    req.headers.has("transfer-encoding") ||
    Number(req.headers.get("content-length") ?? "0") > 0;
  if (!hasBody) return;
  const type = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "multipart/form-data" && MULTIPART_PATHS.some((p) => p.test(pathOf(req)))) return;
  if (type !== "application/json") {
    throw new AppError("csrf", "Send the request body as application/json.");
  }
}
