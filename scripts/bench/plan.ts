import type { Sizes } from "./config";
import { benchId, type SeedPlan, type SeedSession, type SeedUser } from "./seed";

// Who and what the benchmark seeds. Each workload has its own sessions, so no measurement disturbs another.

export interface BenchPlan {
  seed: SeedPlan;
  password: string;
  owner: SeedUser;
  admin: SeedUser;
  w2Users: SeedUser[];
  /** W1F: a user with FACTS long-term facts, beside the owner (who has none). */
  factsUser: SeedUser;
  sessions: {
    /** Server warm-up (and in-process warm-up) turns; never measured. */
    warmup: SeedSession;
    /** In-process counting, one per H: each starts without a memory snapshot. */
    count: SeedSession[];
    w1: SeedSession[];
    /** W1B: one per H, made a tree (an edit at the middle, then a regenerate) before its turns. */
    w1b: SeedSession[];
    /** W1B's in-process counting, one per H, branched the same way. */
    countBranched: SeedSession[];
    w2: SeedSession[];
    w3: SeedSession;
    w4: SeedSession[];
    w5: SeedSession;
    /** W6: one group of sessions per N in sizes.w6Streams, so each block starts on sessions that took no turn. */
    w6: SeedSession[][];
    /** Warm-up of the W6 server: turns run 20 at a time (one answer lasts ~0.6 s there). */
    w6Warmup: SeedSession[];
    /** W9: one group per rate in sizes.w9Rates, one session per arrival, at its time from the block's start. */
    w9: { rate: number; arrivals: { atMs: number; session: SeedSession }[] }[];
    /** W1F: the same history length for the owner (no facts) and for factsUser (FACTS facts). */
    w1Facts: { without: SeedSession; with: SeedSession };
    /** W10: a long history switched to the summary policy, summarized by the background backlog (null: skipped). */
    backlog: SeedSession | null;
    /** W1X: one session per memory-extraction arm, each its own user (the setting is per user). */
    w1x: { on: SeedSession; off: SeedSession };
  };
  /** W1X: the users whose memory extraction is `suggest` (on) and `off`. */
  w1xUsers: { on: SeedUser; off: SeedUser };
}

const DOMAIN = "bench.recall.test";
/** W1F: long-term facts of its user, and the history length of its two sessions. */
export const FACTS = 1000;
const W1F_HISTORY = 100;

export function buildPlan(sizes: Sizes, passwordHash: string, password: string): BenchPlan {
  let userN = 0;
  let sessionN = 0;
  const users: SeedUser[] = [];
  const sessions: SeedSession[] = [];
  const user = (email: string, name: string, role: SeedUser["role"] = "USER") => {
    const u = { id: benchId("u", ++userN), email, name, role };
    users.push(u);
    return u;
  };
  const session = (owner: SeedUser, title: string, messages: number) => {
    const n = ++sessionN;
    const s = { id: benchId("s", n), n, userId: owner.id, title, messages };
    sessions.push(s);
    return s;
  };

  const owner = user(`owner@${DOMAIN}`, "Bench Owner");
  const admin = user(`admin@${DOMAIN}`, "Bench Admin", "ADMIN");
  const warmup = session(owner, "Warm-up", 10);
  const count = sizes.histories.map((h) => session(owner, `Counted turns, H=${h}`, h));
  const w1 = sizes.histories.map((h) => session(owner, `W1, H=${h}`, h));
  const w1b = sizes.histories.map((h) => session(owner, `W1B, H=${h}`, h));
  const countBranched = sizes.histories.map((h) => session(owner, `Counted branched turns, H=${h}`, h));
  const w2Users = Array.from({ length: sizes.w2Users }, (_, i) =>
    user(`w2-user-${String(i + 1).padStart(2, "0")}@${DOMAIN}`, `W2 user ${i + 1}`),
  );
  const w2 = w2Users.map((u, i) => session(u, `W2 chat ${i + 1}`, sizes.w2History));
  const w3 = session(owner, "W3 streaming", sizes.w3History);
  const w5 = session(owner, "W5 to be deleted", sizes.w5Messages);
  const w6Warmup = Array.from({ length: 20 }, (_, i) => session(owner, `W6 warm-up ${i + 1}`, 10));
  const w6 = sizes.w6Streams.map((n, k) =>
    Array.from({ length: n }, (_, i) => session(owner, `W6 stream ${k + 1}.${i + 1}`, sizes.w6History)),
  );
  const w9 = sizes.w9Rates.map((rate, k) => ({
    rate,
    arrivals: poissonArrivals(rate, sizes.w9DurationMs, k + 1).map((atMs, i) => ({
      atMs,
      session: session(owner, `W9 ${rate}/s stream ${i + 1}`, sizes.w6History),
    })),
  }));
  const w4Owners = Array.from({ length: sizes.w4Users }, (_, i) =>
    user(`w4-user-${String(i + 1).padStart(4, "0")}@${DOMAIN}`, `W4 user ${i + 1}`),
  );
  const topics = ["Trip planning", "Budget review", "Garden notes", "Recipe ideas", "Release checklist"];
  const w4 = Array.from({ length: sizes.w4Sessions }, (_, i) =>
    session(
      w4Owners[i % w4Owners.length] as SeedUser,
      `${topics[i % topics.length]} ${i + 1}`,
      sizes.w4MessagesPerSession,
    ),
  );

  const factsUser = user(`facts@${DOMAIN}`, "Bench user with long-term facts");
  const w1Facts = {
    without: session(owner, "W1F, no facts", W1F_HISTORY),
    with: session(factsUser, "W1F, 1000 facts", W1F_HISTORY),
  };

  const backlog =
    sizes.backlogMessages > 0 ? session(owner, "W10 summary backlog", sizes.backlogMessages) : null;

  const w1xUsers = {
    on: user(`w1x-suggest@${DOMAIN}`, "W1X user, extraction suggest"),
    off: user(`w1x-off@${DOMAIN}`, "W1X user, extraction off"),
  };
  const w1x = {
    on: session(w1xUsers.on, "W1X, extraction suggest", sizes.w1xHistory),
    off: session(w1xUsers.off, "W1X, extraction off", sizes.w1xHistory),
  };

  return {
    seed: { passwordHash, users, sessions },
    password,
    owner,
    admin,
    w2Users,
    factsUser,
    w1xUsers,
    sessions: {
      warmup,
      count,
      w1,
      w1b,
      countBranched,
      w2,
      w3,
      w4,
      w5,
      w6,
      w6Warmup,
      w9,
      w1Facts,
      backlog,
      w1x,
    },
  };
}

/**
 * Open-loop arrivals at `ratePerSecond` over `durationMs`: the times (ms from the start) of a Poisson process,
 * exponential gaps drawn from a generator seeded with `seed`, so every run and every build sees the same arrivals.
 */
export function poissonArrivals(ratePerSecond: number, durationMs: number, seed: number): number[] {
  // mulberry32
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: number[] = [];
  for (let at = 0; ; ) {
    at += (-Math.log(1 - random()) / ratePerSecond) * 1000;
    if (at >= durationMs) return out;
    out.push(at);
  }
}

/**
 * W1B: where a seeded linear history of `messages` is branched — an assistant message (even seq) in the middle,
 * whose new child question is the edit.
 */
export function branchPointSeq(messages: number): number {
  return 2 * Math.max(1, Math.floor(messages / 4));
}

/** A user message of about 200 characters that asks nothing the offline model treats specially. */
export function turnContent(label: string, i: number): string {
  return (
    `${label} turn ${i}: please write a short note about the weather, the garden and the coffee this morning, ` +
    "keeping it friendly and brief so that the answer fits on one line of the screen for everyone."
  );
}

/**
 * W1X: a user message of about 200 characters stating two new facts ("I live in …", "my … is …") the extraction
 * after the answer finds, different at every i so none is already known.
 */
export function factContent(label: string, i: number): string {
  const cities = ["Lisbon", "Kyoto", "Porto", "Tallinn", "Quito", "Hobart", "Bergen"];
  return (
    `${label} turn ${i}. I live in ${cities[i % cities.length]} district ${i} now. ` +
    `My locker number ${i} is ${1000 + i * 7}. The coffee this morning was fine, thanks. ` +
    "Please answer with one short friendly line about the weather for everyone here."
  );
}
