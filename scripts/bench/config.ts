import { parseArgs } from "node:util";

// What `npm run bench` runs: the full sizes, or a reduced `--quick` run for CI.

export interface Sizes {
  /** W1: history lengths H, turns measured at each, warm-up turns per session (the first one rebuilds memory). */
  histories: number[];
  w1Turns: number;
  w1WarmupTurns: number;
  /** PostgreSQL only: turns per H around which the server's table statistics are read (0: skip, ~11 s per H). */
  pgStatsTurns: number;
  /** Turns on a throwaway session before anything is measured (JIT, caches, first-query compile). */
  serverWarmupTurns: number;
  /** In-process turns on a throwaway session before counting (JIT, first-query compile). */
  countWarmupTurns: number;
  /** In-process turns per H whose statements are counted (after the first, memory-rebuilding, one). */
  countTurns: number;
  w2Users: number;
  w2Turns: number;
  w2History: number;
  w3Turns: number;
  w3FirstTokenDelayMs: number;
  w3History: number;
  w4Sessions: number;
  w4MessagesPerSession: number;
  w4Users: number;
  /** Repetitions of each W4 request (the median is reported). */
  w4Repeats: number;
  w4PageSize: number;
  w5Messages: number;
  /** W6: concurrent streaming answers, one block per N (each N on its own sessions of w6History messages). */
  w6Streams: number[];
  w6History: number;
  /** 775 ms: with ~50 tokens at 40 tokens/s, a 2 s answer (streams.ts, w6Content). */
  w6FirstTokenDelayMs: number;
  /** 25 ms: 40 tokens/s. */
  w6TokenDelayMs: number;
  w6TimeoutMs: number;
  /** W9: Poisson arrival rates (new turns per second), one block per rate, each lasting w9DurationMs. */
  w9Rates: number[];
  w9DurationMs: number;
  /** W9's answers: "count to N", one token per number — 800 at 40 tokens/s is ~20 s of streaming. */
  w9AnswerTokens: number;
  /** W10: the history an imported-like conversation switched to the summary policy has summarized (0: skip). */
  backlogMessages: number;
  /** W1X: turns per arm (memory extraction `suggest` and `off`), interleaved, on sessions of w1xHistory messages. */
  w1xTurns: number;
  w1xHistory: number;
}

export const FULL: Sizes = {
  histories: [10, 1_000, 10_000, 100_000],
  w1Turns: 50,
  w1WarmupTurns: 3,
  pgStatsTurns: 10,
  serverWarmupTurns: 200,
  countWarmupTurns: 100,
  countTurns: 20,
  w2Users: 20,
  w2Turns: 25,
  w2History: 100,
  w3Turns: 30,
  w3FirstTokenDelayMs: 200,
  w3History: 100,
  w4Sessions: 10_000,
  w4MessagesPerSession: 100,
  w4Users: 500,
  w4Repeats: 21,
  w4PageSize: 50,
  w5Messages: 100_000,
  w6Streams: [200, 1_000],
  w6History: 10,
  w6FirstTokenDelayMs: 775,
  w6TokenDelayMs: 25,
  w6TimeoutMs: 120_000,
  w9Rates: [20, 50],
  w9DurationMs: 60_000,
  w9AnswerTokens: 800,
  backlogMessages: 100_000,
  w1xTurns: 100,
  w1xHistory: 100,
};

export const QUICK: Sizes = {
  histories: [10, 1_000],
  w1Turns: 15,
  w1WarmupTurns: 2,
  pgStatsTurns: 0,
  serverWarmupTurns: 50,
  countWarmupTurns: 10,
  countTurns: 3,
  w2Users: 5,
  w2Turns: 5,
  w2History: 100,
  w3Turns: 5,
  w3FirstTokenDelayMs: 200,
  w3History: 100,
  w4Sessions: 200,
  w4MessagesPerSession: 100,
  w4Users: 20,
  w4Repeats: 5,
  w4PageSize: 50,
  w5Messages: 5_000,
  w6Streams: [50],
  w6History: 10,
  w6FirstTokenDelayMs: 775,
  w6TokenDelayMs: 25,
  w6TimeoutMs: 60_000,
  w9Rates: [5],
  w9DurationMs: 2_000,
  w9AnswerTokens: 40,
  backlogMessages: 2_000,
  w1xTurns: 5,
  w1xHistory: 100,
};

/**
 * `--compare`: W1, W3 and W6 (its smallest N) on both builds; nothing seeded for W4 and W5. The W2 users are
 * still seeded (the plan always has them) but W2 does not run.
 */
export const compareSizes = (sizes: Sizes): Sizes => ({
  ...sizes,
  w4Sessions: 0,
  w4Users: 0,
  w5Messages: 10,
  w6Streams: sizes.w6Streams.slice(0, 1),
  w9Rates: [],
  backlogMessages: 0,
});

export interface Options {
  quick: boolean;
  /** "sqlite" (a file under the OS temp dir), "postgres" (a database created on 127.0.0.1:5432), or a URL. */
  db: string;
  keep: boolean;
  help: boolean;
  /** The server's MEMORY_POLICY: the default window, the token budget, or summaries. */
  memoryPolicy: "window" | "tokens" | "summary";
  /** --multi N: W2 again against N `next start` instances behind a round-robin proxy (0: not run). */
  multi: number;
  /** --compare <ref>: W1, W3 and W6 against this build and a build of <ref>, interleaved; ratios. */
  compare: string | null;
  /** --profile: a CPU profile of the server during the W1 block, summarized by package. */
  profile: boolean;
  /** --w6 N,N…: W6's numbers of streams instead of the size's (null: 200 and 1 000; 50 with --quick). */
  w6: number[] | null;
  /** --w9 R,R…: W9's arrival rates (new turns per second) instead of the size's (null: 20 and 50; 5 with --quick). */
  w9: number[] | null;
  /** --only id,id…: run only these workloads (null: all that are enabled). */
  only: string[] | null;
}

export const USAGE = `usage: npm run bench [-- [--quick] [--db sqlite|postgres|<url>] [--keep]]

  --quick        a smoke run (npm test ends with it): reduced sizes (H = 10 and 1 000, few turns, W4 with 20 000
                 messages, W5 with 5 000) that check the invariants; its timings are not a measurement
  --db sqlite    (default) a new SQLite file under the OS temp directory
  --db postgres  a new database on TEST_POSTGRES_URL's server (default postgresql://postgres@127.0.0.1:5432)
  --db <url>     a database that must not exist yet (file:… or postgresql://…); created, then dropped
  --keep         keep the database afterwards (its URL is printed)
  --memory-policy window|tokens|summary
                 the server's MEMORY_POLICY (default window); tokens uses MEMORY_MAX_TOKENS=8000
  --multi N      also run W2 against N next start instances on the same database behind a round-robin proxy
                 (scripts/bench/proxy.mjs) and report turns/s per core beside the single-process W2
  --profile      CPU-profile the server during the W1 block; prints self time by package (Prisma, Next.js, web
                 streams, gpt-tokenizer, app code …) and keeps the .cpuprofile under bench-results/
  --w6 N[,N…]    W6 with these numbers of answers streaming at once (default 200,1000; 50 with --quick)
  --w9 R[,R…]    W9 with these Poisson arrival rates, new turns per second (default 20,50 for 60 s each, answers
                 of 800 tokens at 40 tokens/s; 5 for 2 s with --quick)
  --only ID[,ID…] run only these workloads (ids as in scripts/bench/registry: w1, w2, w6, w10 …); the others are
                 skipped, the seed stays the same
  --compare <git-ref>
                 build <git-ref> in a temporary git worktree (node_modules symlinked when the lockfile allows,
                 else npm ci; next build under /tmp/recall-build.lock unless an ancestor already holds it), seed
                 a database for each build (each migrated by its own commit), run W1, W3 and W6 (smallest N)
                 against both builds interleaved turn by turn, and print ratios this/other; removes the worktree
                 (with --quick: the quick sizes; the other workloads do not run). A directory holding a built
                 checkout (.next/BUILD_ID) is used as it is instead

Needs an existing production build (npm run build). Prints a table and writes bench-results/<time>-<db>.json.
Exits non-zero on errors and broken invariants (rows left after a delete, per-turn statements that change
with the history length, a full scan of ChatMessage), never on a missed timing target.`;

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      db: { type: "string", default: "sqlite" },
      keep: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
      "memory-policy": { type: "string", default: "window" },
      multi: { type: "string", default: "0" },
      compare: { type: "string" },
      profile: { type: "boolean", default: false },
      w6: { type: "string" },
      w9: { type: "string" },
      only: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  const memoryPolicy = values["memory-policy"];
  if (memoryPolicy !== "window" && memoryPolicy !== "tokens" && memoryPolicy !== "summary") {
    throw new Error(`--memory-policy must be window, tokens or summary (got "${memoryPolicy}")`);
  }
  const multi = Number(values.multi);
  if (!Number.isInteger(multi) || multi < 0 || multi === 1 || multi > 8) {
    throw new Error(`--multi must be a number of instances from 2 to 8 (got "${values.multi}")`);
  }
  const w6 = values.w6 === undefined ? null : values.w6.split(",").map(Number);
  if (w6 && (w6.length === 0 || w6.some((n) => !Number.isInteger(n) || n < 1 || n > 5_000))) {
    throw new Error(`--w6 must be numbers of streams from 1 to 5 000, comma-separated (got "${values.w6}")`);
  }
  const w9 = values.w9 === undefined ? null : values.w9.split(",").map(Number);
  if (w9 && (w9.length === 0 || w9.some((r) => !Number.isFinite(r) || r <= 0 || r > 200))) {
    throw new Error(
      `--w9 must be arrival rates above 0 and up to 200 a second, comma-separated (got "${values.w9}")`,
    );
  }
  return {
    quick: values.quick,
    db: values.db,
    keep: values.keep,
    help: values.help,
    memoryPolicy,
    multi,
    compare: values.compare ?? null,
    profile: values.profile,
    w6,
    w9,
    only: values.only === undefined ? null : values.only.split(",").map((id) => id.trim().toLowerCase()),
  };
}
