import { setTimeout as sleep } from "node:timers/promises";
import { fmtInt, fmtMs, fmtSeconds, table } from "../report";
import { type Summary, summarize } from "../stats";
import { need, workload } from "./types";

/** The window W10 sets with the summary policy; the backlog covers everything before it. */
const WINDOW = 20;

interface W10Result {
  skipped: boolean;
  messages: number;
  /** From the PATCH that switched the policy to the summary covering #1 up to the window. */
  wallMs: number;
  fromSeq: number;
  throughSeq: number;
  timedOut: boolean;
  /** The memory API's answers to the polls while the backlog ran: the server kept serving requests. */
  polls: Summary;
}

interface MemoryJson {
  summary?: { fromSeq: number; throughSeq: number; messages: number };
}

/**
 * W10 (issue 24 item 4): a long seeded history, never summarized, switched to `policy: summary`; the background
 * backlog (decision 034) summarizes it from #1, segment by segment, off any turn. Timed until the memory API
 * reports a summary from #1 up to the window; the demo model answers summary requests without delay, so this is
 * the app's own cost per segment (reads, the model request and its fenced writes).
 */
export const w10 = workload<W10Result>({
  id: "w10",
  phase: "main",
  describe: (sizes) =>
    `W10: the summary backlog of a ${fmtInt(sizes.backlogMessages)}-message conversation …`,
  async run(ctx) {
    const session = ctx.plan.sessions.backlog;
    const empty = {
      messages: 0,
      wallMs: 0,
      fromSeq: 0,
      throughSeq: 0,
      timedOut: false,
      polls: summarize([]),
    };
    if (!session) return { skipped: true, ...empty };
    const owner = need(ctx.owner, "the owner");
    const path = `/api/sessions/${session.id}/memory`;
    const started = performance.now();
    await owner.json("PATCH", path, { policy: "summary", maxMessages: WINDOW });
    // Generous: ~200 messages a segment; a slow machine must still finish, only later.
    const deadline = started + Math.max(120_000, session.messages * 10);
    // The backlog writes its summary into the snapshot only once it reaches the memory's oldest message (the
    // rebuilt memory's tail, a few windows long), and nothing else summarizes this conversation: a summary from #1
    // is the finished backlog.
    const finished = (s: MemoryJson["summary"]) =>
      Boolean(s && s.fromSeq === 1 && s.throughSeq >= session.messages - WINDOW * 10);
    let summary: MemoryJson["summary"];
    const polls: number[] = [];
    for (;;) {
      const { data, ms } = await owner.json<MemoryJson>("GET", path);
      summary = data.summary;
      polls.push(ms);
      if (finished(summary) || performance.now() > deadline) break;
      await sleep(200);
    }
    const done = finished(summary);
    return {
      skipped: false,
      messages: session.messages,
      wallMs: performance.now() - started,
      fromSeq: summary?.fromSeq ?? 0,
      throughSeq: summary?.throughSeq ?? 0,
      timedOut: !done,
      polls: summarize(polls),
    };
  },
  checks: (w) =>
    w.skipped
      ? []
      : [
          {
            name: `W10: the summary backlog of ${fmtInt(w.messages)} messages covers #1 up to the window`,
            ok: !w.timedOut,
            detail: `summary #${w.fromSeq}–#${w.throughSeq} after ${fmtSeconds(w.wallMs)}`,
          },
        ],
  render: (w) =>
    w.skipped
      ? []
      : [
          "",
          `W10 summary backlog — ${fmtInt(w.messages)} seeded messages switched to policy summary (window ${WINDOW})`,
          table(
            ["wall", "covered", "messages/s", "memory API meanwhile (median, max)", ""],
            [
              [
                fmtSeconds(w.wallMs),
                `#${w.fromSeq}–#${w.throughSeq}`,
                fmtInt(Math.round((w.throughSeq / w.wallMs) * 1000)),
                `${fmtMs(w.polls.median)}, ${fmtMs(w.polls.max)} (${w.polls.n} polls)`,
                w.timedOut ? "FAIL (timed out)" : "PASS",
              ],
            ],
          ),
        ],
});
