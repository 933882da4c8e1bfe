import { describe, expect, it } from "vitest";
import { EN_FACTS, ZH_FACTS } from "./facts";
import { FULL_OPTIONS, generate, QUICK_OPTIONS } from "./generate";

describe("recall benchmark data", () => {
  const convs = generate(FULL_OPTIONS);

  it("is the same for the same seed and differs for another", () => {
    expect(generate(QUICK_OPTIONS)).toEqual(generate(QUICK_OPTIONS));
    expect(generate({ ...QUICK_OPTIONS, seed: 7 })[0]?.messages).not.toEqual(
      generate(QUICK_OPTIONS)[0]?.messages,
    );
  });

  it("has at least 20 long conversations in English and Chinese, dated over many sessions", () => {
    expect(convs.length).toBeGreaterThanOrEqual(20);
    expect(new Set(convs.map((c) => c.lang))).toEqual(new Set(["en", "zh"]));
    for (const c of convs) {
      expect(c.messages.length).toBeGreaterThanOrEqual(500);
      const days = new Set(c.messages.map((m) => m.createdAt.slice(0, 10)));
      expect(days.size).toBeGreaterThanOrEqual(30);
      const times = c.messages.map((m) => Date.parse(m.createdAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(c.messages.map((m) => m.seq)).toEqual(c.messages.map((_, i) => i + 1));
    }
  });

  it("points every question at user messages outside the last 20, and never gives the answer away", () => {
    const kinds = new Map([...EN_FACTS, ...ZH_FACTS].map((k) => [k.id, k]));
    let changed = 0;
    for (const c of convs) {
      const bySeq = new Map(c.messages.map((m) => [m.localId, m]));
      for (const q of c.questions) {
        expect(q.evidence.length).toBeGreaterThan(0);
        for (const id of q.evidence) {
          const m = bySeq.get(id);
          expect(m?.role).toBe("user");
          expect(m?.seq ?? 0).toBeLessThanOrEqual(c.messages.length - 20);
        }
        const kind = kinds.get(q.id.replace(/^\d+-/, "").replace(/-before$/, ""));
        expect(kind).toBeDefined();
        for (const v of kind?.values ?? []) if (!kind?.when) expect(q.text).not.toContain(v);
        if (q.kind === "changed") changed++;
      }
    }
    expect(changed).toBeGreaterThan(5);
  });

  it("asks the fresh wording of the same questions: same conversations, evidence and kinds, other texts", () => {
    const fresh = generate({ ...FULL_OPTIONS, wording: "fresh" });
    expect(fresh.map((c) => c.messages)).toEqual(convs.map((c) => c.messages));
    const tuned = new Set([...EN_FACTS, ...ZH_FACTS].flatMap((k) => [...k.ask, ...(k.askBefore ?? [])]));
    fresh.forEach((c, i) => {
      const before = convs[i]?.questions ?? [];
      expect(c.questions.map(({ text: _t, ...q }) => q)).toEqual(before.map(({ text: _t, ...q }) => q));
      for (const q of c.questions) expect(tuned.has(q.text)).toBe(false);
    });
    for (const k of [...EN_FACTS, ...ZH_FACTS]) {
      expect(k.fresh.length).toBeGreaterThan(0);
      if (k.askBefore) expect(k.freshBefore?.length ?? 0).toBeGreaterThan(0);
      if (k.when) continue;
      for (const v of k.values)
        for (const q of [...k.fresh, ...(k.freshBefore ?? [])]) expect(q).not.toContain(v);
    }
  });

  it("states each answer once and surrounds it with distractors of the same kind", () => {
    for (const c of convs.slice(0, 5)) {
      for (const q of c.questions.filter((x) => x.kind === "fact")) {
        const evidence = c.messages.find((m) => m.localId === q.evidence[0]);
        const kind = [...EN_FACTS, ...ZH_FACTS].find((k) => q.id.replace(/^\d+-/, "") === k.id);
        const value = kind?.values.find((v) => evidence?.text.includes(v));
        expect(value).toBeDefined();
        const stating = c.messages.filter((m) => m.role === "user" && m.text.includes(value as string));
        expect(stating.map((m) => m.localId)).toEqual(q.evidence);
      }
    }
  });
});
