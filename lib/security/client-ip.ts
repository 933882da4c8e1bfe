import { PEER_HEADER } from "./peer-address";

/**
 * The client's address for per-IP limits. With no proxy in front (`trustedHops` 0) it is the socket's address,
 * stamped by peer-address.ts at server start; X-Forwarded-For is ignored, since the client wrote it. With
 * `trustedHops` proxies, each appends the address it saw to X-Forwarded-For, and the entry that many places from
 * the right is the one the outermost trusted proxy saw. Where nothing stamps requests (tests calling handlers
 * in-process), the rightmost X-Forwarded-For entry stands in.
 */
export function clientIp(headers: Headers, trustedHops: number): string {
  const peer = trustedHops === 0 ? headers.get(PEER_HEADER) : null;
  if (peer) return peer;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  const index = entries.length - Math.max(trustedHops, 1);
  return entries[Math.max(index, 0)] ?? headers.get("x-real-ip") ?? "unknown";
}
