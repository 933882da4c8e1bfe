import { describe, expect, it } from "vitest";
import { restore, snapshot } from "./snapshot";
import {
  applySummary,
  needsSummary,
  planSummary,
  type Summarizer,
  type SummarizerInput,
  summarize,
  summaryPolicy,
} from "./summary";
import { conversation, deepFreeze, labels } from "./test-fixtures";
import type { MemoryItem } from "./types";

const config = { trigger: 6, keepRecent: 2 };
const now = () => new Date("2025-01-02T03:04:05.000Z");
const echo: Summarizer = async ({ previous, messages }) =>
  [previous, messages.map((m) => m.text).join(",")].filter(Boolean).join(" | ");

describe("summary trigger and plan (AI4J's shape)", () => {
  it("triggers when history reaches the trigger, pinned items not counted", () => {
    expect(needsSummary(conversation("S Σ u1 a2 u3 a4 u5"), config)).toBe(false);
    expect(needsSummary(conversation("S Σ u1 a2 u3 a4 u5 a6"), config)).toBe(true);
  });

  it("folds everything but the newest keepRecent messages", () => {
    const plan = planSummary(conversation("S u1 a2 u3 a4 u5 a6"), config);
    expect(labels(plan?.fold ?? [])).toBe("u1 a2 u3 a4");
    expect(plan).toMatchObject({ previous: [], fromSeq: 1, throughSeq: 4, messages: 4, version: 1 });
  });

  it("keeps a tool call with its outputs on the recent side", () => {
    const plan = planSummary(conversation("u1 a2 u3 a4 c5:x t6:x"), config);
    expect(labels(plan?.fold ?? [])).toBe("u1 a2 u3 a4");
    const cut = planSummary(conversation("u1 a2 u3 a4 u5 c6:x,y t7:x t8:y"), { trigger: 6, keepRecent: 2 });
    expect(labels(cut?.fold ?? [])).toBe("u1 a2 u3 a4 u5 c6:x,y t7:x t8:y");
  });

  it("is null below the trigger", () => {
    expect(planSummary(conversation("u1 a2 u3"), config)).toBeNull();
  });

  it("validates its configuration", () => {
    expect(() => needsSummary([], { trigger: 2, keepRecent: 2 })).toThrow(RangeError);
    expect(() => needsSummary([], { trigger: 5, keepRecent: 0 })).toThrow(RangeError);
    expect(() => summaryPolicy({ trigger: 4.5, keepRecent: 2 })).toThrow(RangeError);
  });

  it("the snapshot policy is a window of twice the trigger with summaries pinned (room for a lagging summary)", () => {
    const policy = summaryPolicy({ trigger: 3, keepRecent: 1 });
    expect(policy.id).toBe("summary:1/3");
    expect(labels(policy.apply(conversation("Σ u1 a2 u3 a4 u5 a6 u7")))).toBe("Σ a2 u3 a4 u5 a6 u7");
  });
});

describe("summarize (AI4J's summary behaviours)", () => {
  it("replaces the folded messages with one summary carrying its provenance", async () => {
    const items = deepFreeze(conversation("S u1 a2 u3 a4 u5 a6"));
    const outcome = await summarize({ items, config, summarizer: echo, model: "m1", now });
    expect(outcome.status).toBe("summarized");
    expect(labels(outcome.items)).toBe("S u1,a2,u3,a4 u5 a6");
    const summary = outcome.items[1];
    expect(summary).toStrictEqual({
      role: "system",
      text: "u1,a2,u3,a4",
      summary: true,
      summaryMeta: {
        fromSeq: 1,
        throughSeq: 4,
        messages: 4,
        version: 1,
        model: "m1",
        createdAt: "2025-01-02T03:04:05.000Z",
      },
    });
    // Survives a store and restore unchanged.
    expect(restore(JSON.parse(JSON.stringify(snapshot(outcome.items))))).toStrictEqual(outcome.items);
  });

  it("merges the previous summary into the new one (one summary, range and count extended, version + 1)", async () => {
    const first = await summarize({
      items: conversation("S u1 a2 u3 a4 u5 a6"),
      config,
      summarizer: echo,
      model: "m1",
      now,
    });
    const next = [...first.items, ...conversation("u7 a8 u9 a10")];
    const seen: SummarizerInput[] = [];
    const second = await summarize({
      items: next,
      config,
      summarizer: async (input) => {
        seen.push(input);
        return echo(input);
      },
      model: "m2",
      now,
    });
    expect(seen).toEqual([{ previous: "u1,a2,u3,a4", messages: conversation("u5 a6 u7 a8") }]);
    expect(second.items.filter((i) => i.summary)).toHaveLength(1);
    expect(labels(second.items)).toBe("S u1,a2,u3,a4 | u5,a6,u7,a8 u9 a10");
    expect(second.items[1]?.summaryMeta).toMatchObject({
      fromSeq: 1,
      throughSeq: 8,
      messages: 8,
      version: 2,
      model: "m2",
    });
  });

  it.each(["", "   \n\t"])("a blank summary %j keeps the originals", async (text) => {
    const items = conversation("S Σ u1 a2 u3 a4 u5 a6");
    const outcome = await summarize({ items, config, summarizer: async () => text, model: "m", now });
    expect(outcome.status).toBe("blank");
    expect(outcome.items).toStrictEqual(items);
  });

  it("a failing summarizer keeps the originals and reports the error", async () => {
    const items = conversation("u1 a2 u3 a4 u5 a6");
    const error = new Error("model down");
    const outcome = await summarize({
      items,
      config,
      summarizer: async () => {
        throw error;
      },
      model: "m",
      now,
    });
    expect(outcome).toEqual({ status: "failed", items, error });
  });

  it("below the trigger the summarizer is not called", async () => {
    let calls = 0;
    const outcome = await summarize({
      items: conversation("u1 a2"),
      config,
      summarizer: async () => {
        calls++;
        return "x";
      },
      model: "m",
      now,
    });
    expect(outcome.status).toBe("skipped");
    expect(calls).toBe(0);
  });

  it("the summary trims its text and keeps system items in place", async () => {
    const items = conversation("S1 u1 a2 S2 u3 a4 u5 a6");
    const outcome = await summarize({ items, config, summarizer: async () => "  facts  ", model: "m", now });
    expect(labels(outcome.items)).toBe("S1 facts S2 u5 a6");
  });

  it("applies to a snapshot that gained turns since the plan was made", () => {
    const items = conversation("u1 a2 u3 a4 u5 a6");
    const plan = planSummary(items, config);
    if (!plan) throw new Error("expected a plan");
    const later: MemoryItem[] = [...items, ...conversation("u7 a8")];
    const applied = applySummary({ items: later, plan, text: "s", model: "m", createdAt: now() });
    expect(labels(applied ?? [])).toBe("s u5 a6 u7 a8");
    expect(applySummary({ items: later, plan, text: "", model: "m", createdAt: now() })).toBeNull();
  });
});
