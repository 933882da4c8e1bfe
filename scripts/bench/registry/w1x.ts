import { Client, metaOf } from "../http";
import { factContent } from "../plan";
import { fmtInt, fmtMs, table, verdict } from "../report";
import type { SeedSession, SeedUser } from "../seed";
import { percentile, round, type Summary, summarize } from "../stats";
import { need, workload } from "./types";

type Mode = "suggest" | "off";

interface Arm {
  mode: Mode;
  turns: Summary & { p95: number };
  /** Facts GET /api/memories?messageId= returned for the arm's messages, once each extraction was done. */
  factsSeen: number;
  /** MemoryFact rows of the arm's user with status suggested, read from the database afterwards. */
  suggested: number;
}

interface W1XResult {
  history: number;
  on: Arm;
  off: Arm;
  /** median(suggest) / median(off). */
  ratio: number;
}

/**
 * W1X (issue 24): W1's turn for a user whose memory extraction is `suggest` beside one whose is `off`, every
 * message stating new facts, turn by turn interleaved. The extraction runs after the commit; after each timed turn
 * (of both arms alike) the client asks for the message's facts as the chips under an answer do, which waits for
 * that message's extraction, so no turn is timed while the previous one's extraction still runs.
 */
export const w1x = workload<W1XResult>({
  id: "w1x",
  phase: "main",
  describe: (sizes) =>
    `W1X: ${sizes.w1xTurns} turns each with memory extraction suggest and off, H = ${fmtInt(sizes.w1xHistory)} …`,
  async run(ctx) {
    const server = need(ctx.server, "the server");
    const inspector = need(ctx.inspector, "the database inspector");
    const users = ctx.plan.w1xUsers;
    const sessions = ctx.plan.sessions.w1x;
    const signedIn = async (user: SeedUser, mode: Mode) => {
      const client = new Client(server.url, user.email);
      await client.signIn(user.email, ctx.plan.password);
      await client.json("PATCH", "/api/me/settings", { longTermMemory: true, memoryExtraction: mode });
      return client;
    };
    const arms = [
      {
        mode: "suggest" as const,
        user: users.on,
        session: sessions.on,
        client: await signedIn(users.on, "suggest"),
      },
      {
        mode: "off" as const,
        user: users.off,
        session: sessions.off,
        client: await signedIn(users.off, "off"),
      },
    ];
    const samples: number[][] = arms.map(() => []);
    const seen = arms.map(() => 0);
    const turn = async (k: number, i: number, timed: boolean) => {
      const arm = arms[k] as (typeof arms)[number];
      const t = await arm.client.turn(arm.session.id, factContent(`W1X ${arm.mode}`, i));
      if (timed) (samples[k] as number[]).push(t.totalMs);
      const { questionId } = metaOf(t.body);
      const { data } = await arm.client.json<{ memories: unknown[] }>(
        "GET",
        `/api/memories?messageId=${encodeURIComponent(questionId)}`,
      );
      if (timed) seen[k] = (seen[k] ?? 0) + data.memories.length;
    };
    // The first turn of each rebuilds its memory; one more each warms the extraction path.
    for (let i = 0; i < 2; i++) for (const k of arms.keys()) await turn(k, -1 - i, false);
    for (let i = 0; i < ctx.sizes.w1xTurns; i++) {
      for (let j = 0; j < arms.length; j++) await turn((i + j) % arms.length, i, true);
    }
    const suggestedOf = async (user: SeedUser, session: SeedSession) => {
      const [row] = await inspector.all<{ n: number | string }>(
        `SELECT COUNT(*) AS "n" FROM "MemoryFact" WHERE "userId" = ? AND "sourceSessionId" = ? AND "status" = 'suggested'`,
        [user.id, session.id],
      );
      return Number(row?.n ?? 0);
    };
    const result = await Promise.all(
      arms.map(async (arm, k): Promise<Arm> => {
        const s = samples[k] ?? [];
        return {
          mode: arm.mode,
          turns: {
            ...summarize(s),
            p95: percentile(
              [...s].sort((a, b) => a - b),
              95,
            ),
          },
          factsSeen: seen[k] ?? 0,
          suggested: await suggestedOf(arm.user, arm.session),
        };
      }),
    );
    const [on, off] = result as [Arm, Arm];
    return { history: ctx.sizes.w1xHistory, on, off, ratio: on.turns.median / off.turns.median };
  },
  targets: (x) => [
    {
      id: "w1x.ratio",
      label: `W1 with memory extraction suggest / off (median, H = ${fmtInt(x.history)})`,
      value: x.ratio,
      display: `${round(x.ratio)}× (${fmtMs(x.on.turns.median)} vs ${fmtMs(x.off.turns.median)})`,
      target: "≤ 1.2 (within noise)",
      pass: x.ratio <= 1.2,
    },
  ],
  checks: (x, { sizes }) => [
    {
      name: "W1X: extraction suggest wrote suggestions for the facts stated, extraction off wrote none",
      ok: x.on.suggested >= sizes.w1xTurns && x.on.factsSeen >= sizes.w1xTurns && x.off.suggested === 0,
      detail: `suggest: ${x.on.suggested} rows (${x.on.factsSeen} seen); off: ${x.off.suggested} rows`,
    },
  ],
  render: (x) => [
    "",
    `W1X memory extraction off the turn's path — H = ${fmtInt(x.history)}, ${x.on.turns.n} turns each, interleaved, every message stating two new facts`,
    table(
      ["extraction", "median", "p95", "max", "suggestions written", "facts seen by the client"],
      [x.on, x.off].map((a) => [
        a.mode,
        fmtMs(a.turns.median),
        fmtMs(a.turns.p95),
        fmtMs(a.turns.max),
        fmtInt(a.suggested),
        fmtInt(a.factsSeen),
      ]),
    ),
    `  median suggest / off: ${round(x.ratio)}× (target ≤ 1.2, within noise) ${verdict(x.ratio <= 1.2)}`,
  ],
});
