// The security headers of every response. Pages get a CSP with a fresh nonce from proxy.ts; API responses and
// static files get the fixed set from next.config.ts. Pure: imported by both (proxy runs before any route).

/** A new nonce per page request: 16 random bytes, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The page CSP. Scripts only with this request's nonce ('strict-dynamic' lets Next's loader add its chunks);
 * styles allow inline attributes (React sets style props); images only from the app itself and data:/blob: so an
 * answer cannot make the browser fetch a remote URL; nothing may frame the app.
 */
export function pageCsp(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * API responses, /v1 and files: nothing to run, nothing to frame, and (`sandbox`) a file opened on its own gets a
 * unique origin — it is also the policy of attachment downloads, so the global header cannot drop it from them.
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

export const COMMON_HEADERS: ReadonlyArray<{ key: string; value: string }> = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
];

/** HSTS, sent only when the request reached us over HTTPS (directly or through a TLS-terminating proxy). */
export const HSTS = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };
