import { type NextFetchEvent, type NextRequest, NextResponse } from "next/server";
import { type NextRequestWithAuth, withAuth } from "next-auth/middleware";
import { env } from "@/lib/env";
import { HSTS, newNonce, pageCsp } from "@/lib/security/headers";

// Runs before every page, before API requests without a body, and before any /api or /v1 request whose path has
// a %-escape (a body would be buffered here first, so other writes go straight to their route, which streams and
// limits it). It:
//  - answers a URL with a broken %-escape with 400 JSON (Next's router would fail with a plain-text 500);
//  - gives each page a CSP with a fresh nonce (Next applies the nonce to its own scripts when it renders);
//  - sends signed-out visitors of app pages to /login. API routes answer 401 JSON themselves (lib/http.ts);
//    the OpenAI-compatible /v1 routes (bearer keys, lib/api/v1-route.ts) are not matched at all.

// /s/<id>: a share link, read by anyone who has it (app/s/[id]/page.tsx).
const PUBLIC_PAGES = ["/login", "/register", "/s"];

function badEscape(req: NextRequest): boolean {
  const raw = req.nextUrl.pathname;
  try {
    decodeURIComponent(raw);
    return false;
  } catch {
    return true;
  }
}

function overHttps(req: NextRequest): boolean {
  return (
    req.nextUrl.protocol === "https:" ||
    req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ||
    Boolean(env.NEXTAUTH_URL?.startsWith("https:"))
  );
}

/** Passes the page on with its nonce: the CSP goes on the request (for Next's renderer) and on the response. */
function pageWithCsp(req: NextRequest): NextResponse {
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: env.NODE_ENV === "development" });
  const headers = new Headers(req.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("content-security-policy", csp);
  if (overHttps(req)) res.headers.set(HSTS.key, HSTS.value);
  return res;
}

const signedInOnly = withAuth((req: NextRequestWithAuth) => pageWithCsp(req), {
  secret: env.AUTH_SECRET,
  pages: { signIn: "/login" },
});

export async function proxy(req: NextRequest, event: NextFetchEvent) {
  const path = req.nextUrl.pathname;
  if (badEscape(req)) {
    const message = "The address contains an invalid %-escape.";
    // /v1 speaks OpenAI's error shape (lib/api/v1-route.ts); both carry a code and a message.
    const error = path.startsWith("/v1/")
      ? { message, type: "invalid_request_error", param: null, code: "bad_request" }
      : { code: "bad_request", message };
    return NextResponse.json({ error }, { status: 400 });
  }
  if (path.startsWith("/api/") || path.startsWith("/v1/")) return NextResponse.next();
  if (PUBLIC_PAGES.some((p) => path === p || path.startsWith(`${p}/`))) return pageWithCsp(req);
  return signedInOnly(req as NextRequestWithAuth, event);
}

export const config = {
  matcher: [
    "/((?!api/|v1/|_next/|favicon.ico|.*\\.(?:svg|png|ico|txt)$).*)",
    {
      source: "/api/:path*",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
    // Matched against the raw path: only requests whose path carries a %-escape, with or without a body.
    "/api/:path(.*%.*)",
    "/v1/:path(.*%.*)",
  ],
};
