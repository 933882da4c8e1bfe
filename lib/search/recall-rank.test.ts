import { describe, expect, it } from "vitest";
import { fuse, personOf, rankCandidates, shapeQuestion } from "./recall-rank";

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

  it("with stemsOnly, looks a term with a stem up by the stem alone, in both engines; other terms as before", () => {
    const both = shapeQuestion("When did I start drinking coffee at the allotment?");
    const stems = shapeQuestion("When did I start drinking coffee at the allotment?", { stemsOnly: true });
    const forms = (s: typeof both) => s.slots.map((x) => x.fts.split(" OR "));
    expect(forms(both).some((f) => f.includes('"drinking"') && f.includes('"drink"'))).toBe(true);
    expect(forms(stems).flat()).not.toContain('"drinking"');
    expect(forms(stems).some((f) => f.length === 1 && f[0] === '"drink"')).toBe(true);
    // A word without a stem of its own ("start") keeps its one form; the expansion slots lose their words' word forms.
    expect(forms(stems).some((f) => f.length === 1 && f[0] === '"start"')).toBe(true);
    expect(forms(stems).flat().length).toBeLessThan(forms(both).flat().length);
    for (const slot of stems.slots) {
      const fts = slot.fts.split(" OR ").map((f) => f.replaceAll('"', ""));
      expect(slot.pg.split(" | ").map((f) => f.replaceAll("'", ""))).toEqual(fts);
    }
    // The same slots and weights, and the ranking's view of the question is unchanged.
    expect(stems.slots.map((x) => x.weight)).toEqual(both.slots.map((x) => x.weight));
    expect(stems.terms).toEqual(both.terms);
    expect(stems.expansions).toEqual(both.expansions);
    // A prefix (a lone CJK character) keeps its form.
    expect(shapeQuestion("猫", { stemsOnly: true }).slots[0]?.fts).toContain("*");
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

describe("whom a question is about", () => {
  const at = new Date("2026-11-01T08:00:00Z");
  const candidate = (messageId: string, role: string, text: string) => ({
    messageId,
    sessionId: "s",
    seq: 1,
    role,
    createdAt: at,
    text,
    engine: 0,
  });
  const order = (question: string, candidates: ReturnType<typeof candidate>[]) =>
    rankCandidates(shapeQuestion(question), candidates, new Map()).map((c) => c.messageId);

  it("reads the person from the pronouns: first, second, or neither when none or both", () => {
    expect(personOf("Where did I work before I changed jobs?")).toBe("first");
    expect(personOf("What's our pup called again?")).toBe("first");
    expect(personOf("我现在在哪里上班？")).toBe("first");
    expect(personOf("Which city are you based in?")).toBe("second");
    expect(personOf("你在学哪种乐器？")).toBe("second");
    expect(personOf("When did Caroline go to the support group?")).toBeNull();
    expect(personOf("When did Caroline fly to the US?")).toBeNull();
    expect(personOf("Did they give us the keys?")).toBe("first");
    expect(personOf("WHAT IS MY DOG CALLED?")).toBe("first");
    expect(personOf("What did you tell me about the boiler?")).toBeNull();
  });

  it("prefers what the asked-about speaker said, and neither speaker for a question about a third person", () => {
    const both = [
      candidate("assistant", "assistant", "The boiler was fixed by the landlord on Monday."),
      candidate("user", "user", "The boiler was fixed by the landlord on Monday."),
    ];
    expect(order("when was my boiler fixed by the landlord?", both)[0]).toBe("user");
    expect(order("when was your boiler fixed by the landlord?", both)[0]).toBe("assistant");
    // Neither: the same score, so the tie goes to the message id.
    const third = rankCandidates(
      shapeQuestion("when was Sam's boiler fixed by the landlord?"),
      both,
      new Map(),
    );
    expect(third[0]?.score).toBe(third[1]?.score);
  });

  it("does not let a long message win on the number of words it holds alone", () => {
    const short = candidate("short", "assistant", "Delphine, the landlord, fixed the boiler.");
    const long = candidate(
      "long",
      "assistant",
      "A landlord must keep a boiler safe; landlords often fix a boiler within days, and a letter to the landlord " +
        "about the boiler helps. Keep the letter, note the dates, ask the landlord for a time, and if the boiler is " +
        "still broken after a week, ask again in writing; most landlords answer quickly when it is in writing.",
    );
    // Both hold "landlord" and "boiler"; the long one holds them among many more words.
    expect(order("who fixed the boiler, the landlord?", [long, short])).toEqual(["short", "long"]);
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
