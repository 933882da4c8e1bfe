import type { Sizes } from "./config";
import { BenchError, type Client, metaOf } from "./http";
import type { Pipeline } from "./inprocess";
import { type Inspector, rowsForSession, type TableActivity, tableActivity } from "./inspect";
import { explainStatements, type PlanStep, type Statement } from "./instrument";
import { type BenchPlan, branchPointSeq, turnContent } from "./plan";
import { messageId, type SeedSession } from "./seed";
import { type Summary, summarize } from "./stats";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU used per turn by the server's processes and by this (client) process, and the server's share of a core. */
export interface CpuUse {
  serverMsPerTurn: number | null;
  /** Server CPU time / wall time: 1 = one core fully busy. */
  serverCores: number | null;
  clientMsPerTurn: number;
}

/** Measures the CPU that `fn` (which runs `turns` turns) costs the server and the client. */
async function withCpu<T>(
  serverCpuMs: () => number | null,
  turns: number,
  fn: () => Promise<T>,
): Promise<{ value: T; cpu: CpuUse; wallMs: number }> {
  const server0 = serverCpuMs();
  const client0 = process.cpuUsage();
  const started = performance.now();
  const value = await fn();
  const wallMs = performance.now() - started;
  const client = process.cpuUsage(client0);
  const server1 = serverCpuMs();
  const server = server0 !== null && server1 !== null ? server1 - server0 : null;
  return {
    value,
    wallMs,
    cpu: {
      serverMsPerTurn: server === null ? null : server / turns,
      serverCores: server === null ? null : server / wallMs,
      clientMsPerTurn: (client.user + client.system) / 1000 / turns,
    },
  };
}

// ------------------------------------------------------------------------------- per-turn statements (counted)

export interface StatementShape {
  verb: string;
  table: string;
  rows: number;
  inTransaction: boolean;
}

export interface TurnShape {
  statements: number;
  /** Rows returned by SELECTs. */
  rowsRead: number;
  /** Rows inserted, updated or deleted (RETURNING rows or affected counts). */
  rowsWritten: number;
  transactions: number;
  /** Time spent inside the driver (all statements of the turn). */
  driverMs: number;
  shape: StatementShape[];
}

export function shapeOf(statements: Statement[]): TurnShape {
  const shape = statements.map((s) => {
    const verb = (/^\s*(\w+)/.exec(s.sql)?.[1] ?? "?").toUpperCase();
    const table =
      /\b(?:FROM|INTO|UPDATE)\s+(?:[`"]?\w+[`"]?\.)?[`"]?(\w+)[`"]?/i.exec(s.sql)?.[1] ??
      (verb === "BEGIN" || verb === "COMMIT" || verb === "ROLLBACK" ? "" : "?");
    return { verb, table, rows: s.rows, inTransaction: s.inTransaction };
  });
  const sum = (pred: (v: string) => boolean) =>
    shape.filter((s) => pred(s.verb)).reduce((acc, s) => acc + s.rows, 0);
  return {
    statements: statements.length,
    rowsRead: sum((v) => v === "SELECT" || v === "WITH"),
    rowsWritten: sum((v) => v === "INSERT" || v === "UPDATE" || v === "DELETE"),
    transactions: shape.filter((s) => s.verb === "BEGIN").length,
    driverMs: statements.reduce((acc, s) => acc + s.ms, 0),
    shape,
  };
}

/**
 * A turn's statements with their row counts: those of its transactions in order, then the others sorted. A turn
 * sends its reads outside a transaction at once (`Promise.all`); on PostgreSQL they run on several pooled
 * connections and finish in any order, even after the next transaction's BEGIN. (On SQLite the hot path's
 * statements reach the connection directly and are all counted as outside one: there, only which statements with
 * which row counts is compared, not their order.)
 */
export function signature(t: TurnShape): string {
  const one = (s: StatementShape) => `${s.verb} ${s.table} ${s.rows}`;
  const loose = t.shape.filter((s) => !s.inTransaction).map(one);
  return [...t.shape.filter((s) => s.inTransaction).map(one), ...loose.sort()].join(" | ");
}

export interface CountRow {
  h: number;
  /** The session's first turn: no snapshot yet, memory rebuilt from the history tail. */
  cold: TurnShape;
  steady: TurnShape;
  /** All steady turns at this H had the same statements with the same row counts. */
  steadyStable: boolean;
  inProcessMs: Summary;
  /** Time inside the driver per steady turn. */
  driverMs: Summary;
  coldMs: number;
}

export interface CountResult {
  rows: CountRow[];
  /** Steady turns send the same statements with the same row counts at every H. */
  sameAtEveryH: boolean;
  plans: { sql: string; steps: PlanStep[] }[];
  fullScansOfChatMessage: string[];
  steadySql: string[];
}

export async function countStatements(
  pipeline: Pipeline,
  plan: BenchPlan,
  sizes: Sizes,
  dialect: "sqlite" | "postgresql",
): Promise<CountResult> {
  const userId = plan.owner.id;
  // Warm the client (query compiler, connection, JIT) on a throwaway session first.
  for (let i = 0; i < sizes.countWarmupTurns; i++) {
    await pipeline.turn(plan.sessions.warmup.id, userId, turnContent("Warm-up", i));
  }

  const rows: CountRow[] = [];
  let largest: { cold: Statement[]; steady: Statement[] } | null = null;
  for (const session of plan.sessions.count) {
    const cold = await pipeline.turn(session.id, userId, turnContent("Counted", 0));
    const steady: { ms: number; statements: Statement[] }[] = [];
    for (let i = 1; i <= sizes.countTurns; i++) {
      steady.push(await pipeline.turn(session.id, userId, turnContent("Counted", i)));
    }
    const shapes = steady.map((t) => shapeOf(t.statements));
    const first = shapes[0] as TurnShape;
    rows.push({
      h: session.messages,
      cold: shapeOf(cold.statements),
      steady: first,
      steadyStable: shapes.every((s) => signature(s) === signature(first)),
      inProcessMs: summarize(steady.map((t) => t.ms)),
      driverMs: summarize(shapes.map((x) => x.driverMs)),
      coldMs: cold.ms,
    });
    largest = { cold: cold.statements, steady: steady[0]?.statements ?? [] };
  }
  const signatures = new Set(rows.map((r) => signature(r.steady)));
  const plans = largest ? await explainStatements(dialect, [...largest.cold, ...largest.steady]) : [];
  const fullScansOfChatMessage = plans
    .filter((p) => p.steps.some((s) => s.fullScan && s.table === "ChatMessage"))
    .map((p) => p.sql);
  return {
    rows,
    sameAtEveryH: signatures.size === 1 && rows.every((r) => r.steadyStable),
    plans,
    fullScansOfChatMessage,
    steadySql: (largest?.steady ?? []).map((s) => s.sql),
  };
}

// ----------------------------------------------------------------------------------------------------- W1B

/**
 * W1B: makes a seeded linear session a tree over HTTP — an edit (a new question whose parent is the
 * assistant message in the middle of the history) and then a regenerate of its answer — so the turns that follow
 * are on a branch: their memory follows the path root → middle → edit → regenerated answer, not the seqs.
 */
export async function branchSession(client: Client, session: SeedSession): Promise<void> {
  const parentId = messageId(session.n, branchPointSeq(session.messages));
  const edit = await client.turn(session.id, turnContent("W1B edit", 0), { parentId });
  await client.regenerate(session.id, metaOf(edit.body).answerId);
}

export interface BranchedCountRow {
  h: number;
  /** Where the branch leaves the seeded history. */
  branchSeq: number;
  steady: TurnShape;
  steadyStable: boolean;
}

/** The same branching in-process, then the statements and rows of steady turns on the branch, per H. */
export async function countBranchedStatements(
  pipeline: Pipeline,
  plan: BenchPlan,
  sizes: Sizes,
): Promise<{ rows: BranchedCountRow[]; sameAtEveryH: boolean }> {
  const userId = plan.owner.id;
  const rows: BranchedCountRow[] = [];
  for (const session of plan.sessions.countBranched) {
    const branchSeq = branchPointSeq(session.messages);
    const content = turnContent("Counted edit", 0);
    const edit = await pipeline.turn(session.id, userId, content, {
      content,
      parentId: messageId(session.n, branchSeq),
    });
    const meta = edit.events.find((e) => e.type === "meta");
    if (meta?.type !== "meta") throw new BenchError(`no meta event for the edit in ${session.id}`);
    await pipeline.turn(session.id, userId, "", { regenerate: meta.assistantMessage.id });
    await pipeline.turn(session.id, userId, turnContent("Counted branch", 0)); // the branch's first turn
    const shapes: TurnShape[] = [];
    for (let i = 1; i <= sizes.countTurns; i++) {
      shapes.push(
        shapeOf((await pipeline.turn(session.id, userId, turnContent("Counted branch", i))).statements),
      );
    }
    const first = shapes[0] as TurnShape;
    rows.push({
      h: session.messages,
      branchSeq,
      steady: first,
      steadyStable: shapes.every((x) => signature(x) === signature(first)),
    });
  }
  const signatures = new Set(rows.map((r) => signature(r.steady)));
  return { rows, sameAtEveryH: signatures.size === 1 && rows.every((r) => r.steadyStable) };
}

// ------------------------------------------------------------------------------------------------------ W1

export interface W1Row {
  h: number;
  /** The session's first turn over HTTP (memory rebuilt from the history tail), then the other warm-ups. */
  warmupMs: number[];
  turns: Summary;
  samples: number[];
  ratio: number;
  /** PostgreSQL, full runs: ChatMessage activity per turn, from pg_stat_user_tables around a separate pass of turns. */
  chatMessagePerTurn?: {
    seqScans: number;
    seqRowsRead: number;
    indexScans: number;
    indexRowsFetched: number;
  };
}

/**
 * The measured turns are interleaved — round i sends turn i to every H, starting at a rotating H — so a change in
 * the machine's load during the run (other processes, a WAL checkpoint) lands on every H alike instead of on
 * whichever H happened to run at that moment. On PostgreSQL (full runs) a second pass per H then reads the
 * server's own statistics for ChatMessage (index and sequential-scan rows) around a few turns of that H alone.
 */
export async function runW1(
  client: Client,
  sessions: SeedSession[],
  sizes: Sizes,
  inspector: Inspector | null,
  serverCpuMs: () => number | null,
): Promise<{ rows: W1Row[]; cpu: CpuUse }> {
  const warmups: number[][] = [];
  for (const session of sessions) {
    const warmupMs: number[] = [];
    for (let i = 0; i < sizes.w1WarmupTurns; i++) {
      warmupMs.push((await client.turn(session.id, turnContent("W1 warm-up", i))).totalMs);
    }
    warmups.push(warmupMs);
  }
  const samples: number[][] = sessions.map(() => []);
  const { cpu } = await withCpu(serverCpuMs, sizes.w1Turns * sessions.length, async () => {
    for (let i = 0; i < sizes.w1Turns; i++) {
      for (let k = 0; k < sessions.length; k++) {
        const j = (i + k) % sessions.length;
        const session = sessions[j] as SeedSession;
        (samples[j] as number[]).push((await client.turn(session.id, turnContent("W1", i))).totalMs);
      }
    }
  });
  const rows: W1Row[] = sessions.map((session, j) => ({
    h: session.messages,
    warmupMs: warmups[j] ?? [],
    turns: summarize(samples[j] ?? []),
    samples: samples[j] ?? [],
    ratio: 1,
  }));
  const base = rows[0]?.turns.median ?? Number.NaN;
  for (const row of rows) row.ratio = row.turns.median / base;

  if (inspector?.dialect === "postgresql" && sizes.pgStatsTurns > 0) {
    // A backend reports its statistics when it goes idle, but at most once a second; a report that comes too
    // soon is put off by PGSTAT_IDLE_INTERVAL (10 s). So each reading waits a little longer than that.
    await sleep(PG_STATS_SETTLE_MS);
    let before = await tableActivity(inspector, "ChatMessage");
    for (const [j, session] of sessions.entries()) {
      for (let i = 0; i < sizes.pgStatsTurns; i++) await client.turn(session.id, turnContent("W1 stats", i));
      await sleep(PG_STATS_SETTLE_MS);
      const after = await tableActivity(inspector, "ChatMessage");
      const row = rows[j];
      const per = (k: keyof TableActivity) => (after[k] - before[k]) / sizes.pgStatsTurns;
      if (row) {
        row.chatMessagePerTurn = {
          seqScans: per("seqScans"),
          seqRowsRead: per("seqRowsRead"),
          indexScans: per("indexScans"),
          indexRowsFetched: per("indexRowsFetched"),
        };
      }
      before = after;
    }
  }
  return { rows, cpu };
}

const PG_STATS_SETTLE_MS = 11_000;

// ------------------------------------------------------------------------------------------------------ W2

export interface W2Result {
  users: number;
  turnsPerUser: number;
  wallMs: number;
  turnsPerSecond: number;
  latency: Summary;
  cpu: CpuUse;
}

export async function runW2(
  clients: Client[],
  sessions: SeedSession[],
  sizes: Sizes,
  serverCpuMs: () => number | null,
): Promise<W2Result> {
  // Each session's first (memory-rebuilding) turn, all at once, before the clock starts.
  await Promise.all(
    clients.map((c, i) => c.turn((sessions[i] as SeedSession).id, turnContent("W2 warm-up", 0))),
  );
  const latencies: number[] = [];
  const { wallMs, cpu } = await withCpu(serverCpuMs, clients.length * sizes.w2Turns, () =>
    Promise.all(
      clients.map(async (c, i) => {
        const id = (sessions[i] as SeedSession).id;
        for (let t = 0; t < sizes.w2Turns; t++) {
          latencies.push((await c.turn(id, turnContent("W2", t))).totalMs);
        }
      }),
    ),
  );
  return {
    users: clients.length,
    turnsPerUser: sizes.w2Turns,
    wallMs,
    turnsPerSecond: (latencies.length / wallMs) * 1000,
    latency: summarize(latencies),
    cpu,
  };
}

// ------------------------------------------------------------------------------------------------------ W3

export interface W3Result {
  delayMs: number;
  /** First byte of the model's text minus the model's delay. */
  overhead: Summary;
  /** First byte of the response (the `meta` event, sent before the model is called). */
  firstByte: Summary;
  total: Summary;
}

export async function runW3(client: Client, session: SeedSession, sizes: Sizes): Promise<W3Result> {
  for (let i = 0; i < 3; i++) await client.turn(session.id, turnContent("W3 warm-up", i));
  const timings = [];
  for (let i = 0; i < sizes.w3Turns; i++) timings.push(await client.turn(session.id, turnContent("W3", i)));
  return {
    delayMs: sizes.w3FirstTokenDelayMs,
    overhead: summarize(timings.map((t) => t.firstDeltaMs - sizes.w3FirstTokenDelayMs)),
    firstByte: summarize(timings.map((t) => t.firstByteMs)),
    total: summarize(timings.map((t) => t.totalMs)),
  };
}

// ------------------------------------------------------------------------------------------------------ W4

export interface W4Result {
  skipped?: string;
  sessions?: number;
  messages?: number;
  pageSize?: number;
  pages?: number;
  walkMs?: number;
  firstPage?: Summary;
  deepPage?: Summary & { page: number };
  search?: Summary & { q: string; results: number };
  sessionPage?: Summary & { messages: number; sessionMessages: number };
  longSessionPage?: Summary & { messages: number; sessionMessages: number };
}

interface AdminList {
  sessions: { id: string }[];
  nextCursor: string | null;
}

interface AdminReview {
  messages: unknown[];
}

/** Three unmeasured requests, then `n` measured ones. */
async function repeat(n: number, fn: () => Promise<number>): Promise<Summary> {
  for (let i = 0; i < 3; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await fn());
  return summarize(samples);
}

export async function probeAdminApi(admin: Client): Promise<string | null> {
  const res = await admin.request("GET", "/api/admin/sessions?limit=1");
  if (res.status === 404) return "the admin API is not in this build (GET /api/admin/sessions answered 404)";
  if (res.status !== 200)
    throw new BenchError(`GET /api/admin/sessions: HTTP ${res.status} ${res.body.slice(0, 300)}`);
  return null;
}

export async function runW4(
  admin: Client,
  plan: BenchPlan,
  sizes: Sizes,
  longSession: SeedSession | undefined,
): Promise<W4Result> {
  const skipped = await probeAdminApi(admin);
  if (skipped) return { skipped };
  const limit = sizes.w4PageSize;
  const list = (cursor?: string) =>
    admin.json<AdminList>(
      "GET",
      `/api/admin/sessions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );

  // Walk every page once: it collects the cursors and proves the pagination neither skips nor repeats.
  const cursors: (string | undefined)[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  const walkStarted = performance.now();
  for (;;) {
    cursors.push(cursor);
    const { data } = await list(cursor);
    for (const s of data.sessions) {
      if (seen.has(s.id)) throw new BenchError(`admin list: session ${s.id} on two pages`);
      seen.add(s.id);
    }
    if (!data.nextCursor) break;
    cursor = data.nextCursor;
  }
  const walkMs = performance.now() - walkStarted;
  const expected = plan.seed.sessions.length;
  if (seen.size !== expected) {
    throw new BenchError(
      `admin list: walked ${seen.size} sessions over ${cursors.length} pages, expected ${expected}`,
    );
  }

  const firstPage = await repeat(sizes.w4Repeats, async () => (await list()).ms);
  const deepIndex = Math.max(0, Math.floor(cursors.length * 0.9) - 1);
  const deepCursor = cursors[deepIndex];
  const deepPage = await repeat(sizes.w4Repeats, async () => (await list(deepCursor)).ms);

  const q =
    (plan.seed.users.find((u) => u.email.startsWith("w4-user-0001@"))?.email ?? "w4-user").split("@")[0] ??
    "";
  let results = 0;
  const search = await repeat(sizes.w4Repeats, async () => {
    const r = await admin.json<AdminList>(
      "GET",
      `/api/admin/sessions?limit=${limit}&q=${encodeURIComponent(q)}`,
    );
    results = r.data.sessions.length;
    return r.ms;
  });
  if (results === 0) throw new BenchError(`admin search for "${q}" found nothing`);

  const review = async (session: SeedSession) => {
    let messages = 0;
    const summary = await repeat(sizes.w4Repeats, async () => {
      const r = await admin.json<AdminReview>("GET", `/api/admin/sessions/${session.id}`);
      messages = r.data.messages.length;
      return r.ms;
    });
    if (messages === 0) throw new BenchError(`admin review of ${session.id} returned no messages`);
    return { ...summary, messages, sessionMessages: session.messages };
  };
  const w4Session = plan.sessions.w4[Math.floor(plan.sessions.w4.length / 2)] as SeedSession;

  return {
    sessions: plan.sessions.w4.length,
    messages: plan.sessions.w4.reduce((a, s) => a + s.messages, 0),
    pageSize: limit,
    pages: cursors.length,
    walkMs,
    firstPage,
    deepPage: { ...deepPage, page: deepIndex + 1 },
    search: { ...search, q, results },
    sessionPage: await review(w4Session),
    ...(longSession ? { longSessionPage: await review(longSession) } : {}),
  };
}

// ------------------------------------------------------------------------------------------------------ W5

export interface W5Result {
  messages: number;
  via: string;
  wallMs: number;
  before: Record<string, number>;
  after: Record<string, number>;
  receipt: unknown;
  rowsLeft: number;
}

export async function runW5(
  owner: Client,
  admin: Client,
  useAdmin: boolean,
  session: SeedSession,
  inspector: Inspector,
): Promise<W5Result> {
  // Two turns first, so the session also has a snapshot and recorded contexts to delete.
  for (let i = 0; i < 2; i++) await owner.turn(session.id, turnContent("W5", i));
  const before = await rowsForSession(inspector, session.id);
  const via = useAdmin ? `DELETE /api/admin/sessions/:id` : `DELETE /api/sessions/:id (owner)`;
  const client = useAdmin ? admin : owner;
  const path = useAdmin ? `/api/admin/sessions/${session.id}` : `/api/sessions/${session.id}`;
  const { data, ms } = await client.json<{ receipt: unknown }>("DELETE", path);
  const after = await rowsForSession(inspector, session.id);
  const rowsLeft = Object.values(after).reduce((a, b) => a + b, 0);
  const gone = await owner.request("GET", `/api/sessions/${session.id}`);
  if (gone.status !== 404)
    throw new BenchError(`GET of the deleted session answered ${gone.status}, not 404`);
  return { messages: session.messages, via, wallMs: ms, before, after, receipt: data.receipt, rowsLeft };
}

// ------------------------------------------------------------------------------------------------------ W1F

export interface W1FactsResult {
  facts: number;
  history: number;
  without: Summary;
  with: Summary;
  /** median(with facts) / median(without). */
  ratio: number;
}

/**
 * W1 with long-term memory: turns of two users, interleaved, each in a session of the same history length — one
 * with no facts, one with `facts` (their section is built and ranked every turn). Long-term memory is on for both.
 */
export async function runW1Facts(
  without: { client: Client; session: SeedSession },
  withFacts: { client: Client; session: SeedSession },
  sizes: Sizes,
  facts: number,
): Promise<W1FactsResult> {
  const sides = [without, withFacts];
  for (const side of sides) {
    for (let i = 0; i < sizes.w1WarmupTurns + 1; i++) {
      await side.client.turn(side.session.id, turnContent("W1F warm-up", i));
    }
  }
  const samples: number[][] = [[], []];
  for (let i = 0; i < sizes.w1Turns * 2; i++) {
    for (let k = 0; k < 2; k++) {
      const j = (i + k) % 2;
      const side = sides[j] as (typeof sides)[number];
      (samples[j] as number[]).push((await side.client.turn(side.session.id, turnContent("W1F", i))).totalMs);
    }
  }
  const a = summarize(samples[0] ?? []);
  const b = summarize(samples[1] ?? []);
  return { facts, history: without.session.messages, without: a, with: b, ratio: b.median / a.median };
}
