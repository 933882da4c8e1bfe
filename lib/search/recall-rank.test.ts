import { describe, expect, it } from "vitest";
import { fuse, rankCandidates, shapeQuestion } from "./recall-rank";

describe("shapeQuestion slots", () => {
  it("searches each content term as its own bounded lookup, its expansions apart at a lower weight", () => {
    const shape = shapeQuestion("When did I start drinking coffee?");
    const own = shape.slots.filter((s) => s.weight === 1).map((s) => s.fts);
    expect(own.some((f) => f.includes('"coffee"'))).toBe(true);
    expect(own.some((f) => f.includes('"drinking"') && f.includes('"drink"'))).toBe(true);
    const expansions = shape.slots.filter((s) => s.weight < 1);
    for (const s of expansions)
      for (const o of own) expect(o.split(" OR ")).not.toContain(s.fts.split(" OR ")[0]);
    expect(shape.slots.every((s) => !s.fts.includes('"when"') && !s.fts.includes('"did"'))).toBe(true);
  });

  it("keeps the longest twelve content terms of a long question, in the question's order", () => {
    const words = Array.from({ length: 20 }, (_, i) => `${"zq".repeat(1 + (i % 5))}x${i}`);
    const shape = shapeQuestion(words.join(" "));
    const own = shape.slots
      .filter((s) => s.weight === 1)
      .map((s) => s.fts.split(" OR ")[0]?.replaceAll('"', ""));
    expect(own).toHaveLength(12);
    const kept = words.filter((w) => own.includes(w));
    expect(kept).toEqual(own);
    const shortest = Math.min(...kept.map((w) => w.length));
    expect(words.filter((w) => !kept.includes(w)).every((w) => w.length <= shortest)).toBe(true);
  });

  it("gives each slot the same forms as a tsquery, a prefix as :*", () => {
    for (const slot of shapeQuestion("When did I start drinking coffee?").slots) {
      const fts = slot.fts.split(" OR ").map((f) => f.replaceAll('"', ""));
      const pg = slot.pg.split(" | ").map((f) => f.replaceAll("'", ""));
      expect(pg).toEqual(fts);
    }
    const [first] = shapeQuestion("猫").slots;
    expect(first?.fts).toContain("*");
    expect(first?.pg).toContain(":*");
  });

  it("cuts a Chinese question as the index does: its bigrams are the lookups", () => {
    const own = shapeQuestion("我什么时候去了杭州？").slots.map((s) => s.fts);
    expect(own.some((f) => f.split(" OR ").includes('"杭州"'))).toBe(true);
  });

  it("searches a Chinese question's characters too, as prefixes standing for their bigram, stop characters left out", () => {
    const shape = shapeQuestion("我每天开工前喝哪种茶？");
    const forms = shape.slots.flatMap((s) => s.fts.split(" OR ").map((f) => ({ f, weight: s.weight })));
    expect(forms).toContainEqual({ f: '"茶"*', weight: 0.6 });
    expect(forms).toContainEqual({ f: '"喝"*', weight: 0.6 });
    for (const stop of ["我", "每", "哪"]) expect(forms.map((x) => x.f)).not.toContain(`"${stop}"*`);
    // Each character is searched once, and a character that is a term itself is not repeated.
    expect(new Set(forms.map((x) => x.f)).size).toBe(forms.length);
    expect(shapeQuestion("猫").expansions).toEqual([]);
  });

  it("ranks a message holding the question's one-character word inside a longer run above one without it", () => {
    const question = shapeQuestion("我每天开工前喝哪种茶？");
    const at = new Date("2026-11-01T08:00:00Z");
    const candidate = (messageId: string, text: string) => ({
      messageId,
      sessionId: "s",
      seq: 1,
      role: "user",
      createdAt: at,
      text,
      engine: 0,
    });
    // No bigram of the question is in either message: only 喝 and 茶, as characters, tell them apart.
    const ranked = rankCandidates(
      question,
      [candidate("other", "昨晚看了一部电影。"), candidate("tea", "早上必喝茉莉花茶。")],
      new Map(),
    );
    expect(ranked.map((c) => c.messageId)).toEqual(["tea", "other"]);
  });
});

describe("fuse", () => {
  const c = (id: string) => ({
    messageId: id,
    sessionId: "s",
    seq: 1,
    role: "file",
    createdAt: new Date(0),
    text: id,
    engine: 0,
    score: 1,
  });

  it("orders by the sum of 1 / (60 + rank) over both lists; one only the embedding ranks first can lead", () => {
    const fused = fuse([c("a"), c("b"), c("c")], [c("c"), c("b")]);
    expect(fused.map((x) => x.messageId)).toEqual(["c", "b", "a"]);
    expect(fused[0]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2]?.score).toBeCloseTo(1 / 61, 12);
  });

  it("keeps the lexical order on ties and without embedding ranks", () => {
    expect(fuse([c("a"), c("b")], [c("b"), c("a")]).map((x) => x.messageId)).toEqual(["a", "b"]);
    expect(fuse([c("x"), c("y")], []).map((x) => x.messageId)).toEqual(["x", "y"]);
  });
});
