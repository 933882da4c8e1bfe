/**
 * The client's address for per-IP limits. `next start` sets X-Forwarded-For to the socket's address when the
 * request has none; each reverse proxy in front appends the address it saw. With `trustedHops` proxies, the entry
 * that many places from the right is the one the outermost trusted proxy saw. With no proxy (0), a client that
 * sends its own X-Forwarded-For chooses its key: put a proxy in front (and set TRUSTED_PROXY_HOPS) on the internet.
 */
export function clientIp(headers: Headers, trustedHops: number): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const index = entries.length - Math.max(trustedHops, 1);
  return entries[Math.max(index, 0)] ?? headers.get("x-real-ip") ?? "unknown";
}
