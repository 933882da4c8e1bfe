import type { NextConfig } from "next";
// Validates the configuration at build and at start: a bad variable stops `next build` / `next start` with a
// message naming it, instead of failing on a user's first request.
import "./lib/env";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
