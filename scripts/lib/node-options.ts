// The V8 flags every Recall server is started with: `npm start`, `npm run demo`, the benchmark's and the e2e
// suite's servers (docs/decisions/042-young-generation.md). A streaming answer allocates a few short-lived objects
// a token; with Node's 16 MiB semi-spaces hundreds of open streams promote them to the old generation, where they
// stay until a full collection. With 32 MiB they die young: W9's RSS ~22 % lower and its CPU per answer ~5 % lower.
// `package.json`'s start script spells the same flags (a test keeps the two alike).

export const SERVER_V8_FLAGS = ["--max-semi-space-size=32"] as const;

/** NODE_OPTIONS for a server: the flags first, then `existing` (a flag set there wins: V8 keeps the last). */
export function serverNodeOptions(existing: string | undefined): string {
  return [...SERVER_V8_FLAGS, ...(existing?.split(/\s+/).filter(Boolean) ?? [])].join(" ");
}
