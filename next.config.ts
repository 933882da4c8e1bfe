import type { NextConfig } from "next";
// Validates the configuration at build and at start: a bad variable stops `next build` / `next start` with a
// message naming it, instead of failing on a user's first request.
import { env } from "./lib/env";
import { API_CSP, COMMON_HEADERS, HSTS } from "./lib/security/headers";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Loaded by Node itself, once per process, so the warm-up at start (instrumentation.ts) serves every route.
  // sqlite-vec finds its loadable extension next to its own package at run time.
  serverExternalPackages: ["gpt-tokenizer", "sqlite-vec"],
  reactStrictMode: true,
  // `npm run typecheck` checks the types (first step of npm test); checking them again inside every build doubled
  // the time from a fresh clone to a serving demo.
  typescript: { ignoreBuildErrors: true },
  // Security headers on every response; pages add their per-request CSP nonce in proxy.ts.
  async headers() {
    const https = env.NEXTAUTH_URL?.startsWith("https:");
    return [
      { source: "/:path*", headers: [...COMMON_HEADERS, ...(https ? [HSTS] : [])] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
      { source: "/v1/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
      { source: "/s/:path*", headers: [{ key: "X-Robots-Tag", value: "noindex, nofollow" }] },
      {
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
        headers: [HSTS],
      },
    ];
  },
};

export default nextConfig;
