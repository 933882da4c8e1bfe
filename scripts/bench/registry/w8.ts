import { baselineHits } from "../../bench-recall/baseline";
import { FULL_OPTIONS, generate, QUICK_OPTIONS } from "../../bench-recall/generate";
import { pct, ROWS, summarize as recallSummary, runRow } from "../../bench-recall/rows";
import type { Client } from "../http";
import { turnContent } from "../plan";
import { fmtInt, fmtMs, table, verdict } from "../report";
import type { SeedSession } from "../seed";
import { round, type Summary, summarize } from "../stats";
import { need, workload } from "./types";

// W8: recall. (1) What it costs a turn: W1's sessions (their seeded history indexed for search first, as a real
// conversation's is) take turns with recall on and off, interleaved, at every H. (2) What it finds: the recall
// benchmark's conversation and all rows (scripts/bench-recall; quick sizes with --quick), through the same server.

/** Added median turn time with recall on, and the on/off ratio across H (issue targets). */
const W8_ADDED_MS = 2;
const W8_FLAT_RATIO = 1.2;
const QUALITY_TARGETS = {
  recall: { questions: 0.8, evidence: 0.85 },
  "recall-all": { questions: 0.65 },
} as const;

interface W8Row {
  h: number;
  on: Summary;
  off: Summary;
}

interface W8Quality {
  id: string;
  label: string;
  questions: number;
  whole: number;
  evidence: number;
  found: number;
  tokens: number;
  medianMs: number;
}

interface W8Result {
  rows: W8Row[];
  indexed: number;
  quality: W8Quality[];
  baseline: { questions: number; whole: number; evidence: number; found: number };
  options: { conversations: number; messages: number };
}

/** The sessions' seeded messages into the search index (the seed writes rows only), by seq pages. */
async function indexHistory(url: string, sessions: SeedSession[]): Promise<number> {
  // Imported here, not at the top: lib/env reads DATABASE_URL when first loaded, which the runner's in-process
  // phase sets later to this run's database; with --only that phase may not run, so it is set here as well.
  process.env.DATABASE_URL = url;
  const { createPrismaClient } = await import("@/lib/db/client");
  const { indexMessages } = await import("@/lib/db/search");
  const client = createPrismaClient(url);
  let total = 0;
  try {
    for (const session of sessions) {
      let after = 0;
      for (;;) {
        const rows = await client.chatMessage.findMany({
          where: { sessionId: session.id, seq: { gt: after }, searchDoc: { is: null } },
          orderBy: { seq: "asc" },
          take: 2000,
          select: { id: true, sessionId: true, role: true, text: true, createdAt: true, seq: true },
        });
        if (rows.length === 0) break;
        await client.$transaction((tx) =>
          indexMessages({ docs: rows.map((r) => ({ ...r, userId: session.userId })), fresh: true }, { tx }),
        );
        total += rows.length;
        after = rows.at(-1)?.seq ?? after;
      }
    }
  } finally {
    await client.$disconnect();
  }
  return total;
}

async function setRecall(client: Client, sessionId: string, recall: "off" | "conversation") {
  const res = await client.request("PATCH", `/api/sessions/${sessionId}/memory`, { json: { recall } });
  if (res.status !== 200) throw new Error(`W8: PATCH memory ${res.status} ${res.body.slice(0, 200)}`);
}

async function latency(owner: Client, sessions: SeedSession[], turns: number, warmups: number) {
  const samples = sessions.map(() => ({ on: [] as number[], off: [] as number[] }));
  for (const mode of ["off", "conversation"] as const) {
    for (const s of sessions) {
      await setRecall(owner, s.id, mode);
      for (let i = 0; i < warmups; i++) await owner.turn(s.id, turnContent(`W8 warm-up ${mode}`, i));
    }
  }
  // Interleaved: every round takes one turn per session with recall off, then one with it on.
  for (let i = 0; i < turns; i++) {
    for (const mode of ["off", "conversation"] as const) {
      for (const [j, s] of sessions.entries()) {
        await setRecall(owner, s.id, mode);
        const ms = (await owner.turn(s.id, turnContent("W8", i))).totalMs;
        (samples[j] as { on: number[]; off: number[] })[mode === "off" ? "off" : "on"].push(ms);
      }
    }
  }
  for (const s of sessions) await setRecall(owner, s.id, "conversation");
  return sessions.map((s, j) => ({
    h: s.messages,
    on: summarize(samples[j]?.on ?? []),
    off: summarize(samples[j]?.off ?? []),
  }));
}

export const w8 = workload<W8Result>({
  id: "w8",
  phase: "main",
  describe: (sizes, options) =>
    `W8: recall — ${sizes.w1Turns} turns on/off at H = ${sizes.histories.map(fmtInt).join(", ")}, then the recall benchmark (${options.quick ? "quick" : "full"} sizes) …`,
  async run(ctx) {
    const owner = need(ctx.owner, "the owner");
    const server = need(ctx.server, "the server");
    const sessions = ctx.plan.sessions.w1;
    const indexed = await indexHistory(ctx.url, sessions);
    ctx.log(`W8: indexed ${fmtInt(indexed)} seeded messages of W1's sessions`);
    const rows = await latency(owner, sessions, ctx.sizes.w1Turns, ctx.sizes.w1WarmupTurns);
    const options = ctx.options.quick ? QUICK_OPTIONS : FULL_OPTIONS;
    const convs = generate(options);
    const quality: W8Quality[] = [];
    for (const row of ROWS.filter((r) => r.id === "recall" || r.id === "recall-all" || r.id === "window")) {
      const result = await runRow(server.url, row, convs);
      if (result.unavailable) throw new Error(`W8: ${row.id} unavailable: ${result.unavailable}`);
      quality.push({ id: row.id, label: row.label, ...recallSummary(result.outcomes) });
    }
    const b = baselineHits(convs, 2000);
    return {
      rows,
      indexed,
      quality,
      baseline: { questions: b.questions, whole: b.whole, evidence: b.evidence, found: b.found },
      options: { conversations: options.conversations, messages: options.messages },
    };
  },
  targets({ rows, quality }) {
    const out = [];
    const last = rows.at(-1);
    const first = rows[0];
    if (last) {
      const added = last.on.median - last.off.median;
      out.push({
        id: `w8.added.h${last.h}`,
        label: `W8 median turn with recall − without, at H = ${fmtInt(last.h)}`,
        value: added,
        display: fmtMs(added),
        target: `≤ ${W8_ADDED_MS} ms`,
        pass: added <= W8_ADDED_MS,
      });
    }
    if (first && last && rows.length > 1) {
      const ratio = last.on.median / first.on.median;
      out.push({
        id: `w8.ratio.h${last.h}`,
        label: `W8 recall on: median(H = ${fmtInt(last.h)}) / median(H = ${fmtInt(first.h)})`,
        value: ratio,
        display: `${round(ratio)}×`,
        target: `≤ ${W8_FLAT_RATIO}`,
        pass: ratio <= W8_FLAT_RATIO,
      });
    }
    for (const q of quality) {
      const goal = QUALITY_TARGETS[q.id as keyof typeof QUALITY_TARGETS];
      if (!goal) continue;
      const share = q.whole / Math.max(1, q.questions);
      out.push({
        id: `w8.${q.id}.questions`,
        label: `W8 ${q.label}: questions with all their evidence`,
        value: share,
        display: pct(q.whole, q.questions),
        target: `≥ ${goal.questions * 100} %`,
        pass: share >= goal.questions,
      });
      if ("evidence" in goal) {
        const ev = q.found / Math.max(1, q.evidence);
        out.push({
          id: `w8.${q.id}.evidence`,
          label: `W8 ${q.label}: evidence messages`,
          value: ev,
          display: pct(q.found, q.evidence),
          target: `≥ ${goal.evidence * 100} %`,
          pass: ev >= goal.evidence,
        });
      }
    }
    return out;
  },
  render({ rows, indexed, quality, baseline, options }, { targets }) {
    const out = [
      "",
      `W8 recall cost — turns with recall on and off, interleaved (W1's sessions, ${fmtInt(indexed)} seeded messages indexed)`,
      table(
        ["H", "median off", "median on", "added", "p90 on", "target", ""],
        rows.map((r) => {
          const added = r.on.median - r.off.median;
          return [
            fmtInt(r.h),
            fmtMs(r.off.median),
            fmtMs(r.on.median),
            fmtMs(added),
            fmtMs(r.on.p90),
            `added ≤ ${W8_ADDED_MS} ms`,
            verdict(added <= W8_ADDED_MS),
          ];
        }),
      ),
    ];
    const ratio = targets.find((t) => t.id.startsWith("w8.ratio"));
    if (ratio) out.push(`  ${ratio.label}: ${ratio.display} (target ${ratio.target}) ${verdict(ratio.pass)}`);
    out.push(
      "",
      `W8 recall quality — ${options.conversations} generated conversations of ${options.messages} messages (scripts/bench-recall)`,
      table(
        ["memory", "questions with all evidence", "evidence messages", "context tokens", "turn median"],
        [
          ...quality.map((q) => [
            q.label,
            pct(q.whole, q.questions),
            pct(q.found, q.evidence),
            fmtInt(Math.round(q.tokens)),
            fmtMs(q.medianMs),
          ]),
          [
            "baseline: any-term BM25 + neighbours, 2 000 tokens (not the app)",
            pct(baseline.whole, baseline.questions),
            pct(baseline.found, baseline.evidence),
            "—",
            "—",
          ],
        ],
      ),
    );
    for (const t of targets.filter((x) => x.id.startsWith("w8.recall"))) {
      out.push(`  ${t.label}: ${t.display} (target ${t.target}) ${verdict(t.pass)}`);
    }
    return out;
  },
});
