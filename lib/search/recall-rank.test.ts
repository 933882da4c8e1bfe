import { describe, expect, it } from "vitest";
import { fuse, personOf, poolOf, rankCandidates, shapeQuestion } from "./recall-rank";

const at = new Date("2026-11-01T08:00:00Z");
/** A matched message as the database layer hands it over (the user's unless said). */
const candidate = (messageId: string, text: string, role = "user") => ({
  messageId,
  sessionId: "s",
  seq: 1,
  role,
  createdAt: at,
  text,
  engine: 0,
});

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
    // The stem, then the verb's forms the stem does not find (lib/search/irregular.ts).
    expect(forms(stems)).toContainEqual(['"drink"', '"drank"', '"drunk"']);
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

  it("looks a verb up by its irregular forms too, and counts them as the verb itself", () => {
    const shape = shapeQuestion("When did Caroline go to the support group?", { stemsOnly: true });
    expect(shape.slots.map((x) => x.fts)).toContain('"go" OR "went" OR "gone" OR "goes" OR "going"');
    expect(shapeQuestion("Who is Sam buying for?").slots[1]?.pg).toBe("'buying' | 'bui' | 'buy' | 'bought'");
    // Both hold "support group"; only "went" holds "go", and with it every term of the question.
    const ranked = rankCandidates(
      shapeQuestion("When did I go to the support group?"),
      [
        candidate("other", "A support group meets on Fridays."),
        candidate("went", "I went to a support group."),
      ],
      new Map(),
    );
    expect(ranked.map((c) => c.messageId)).toEqual(["went", "other"]);
    expect((ranked[0]?.score ?? 0) - (ranked[1]?.score ?? 0)).toBeGreaterThan(0.5);
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
  const by = (messageId: string, role: string, text: string) => candidate(messageId, text, role);
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
      by("assistant", "assistant", "The boiler was fixed by the landlord on Monday."),
      by("user", "user", "The boiler was fixed by the landlord on Monday."),
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

  it("finds which speaker a name is by how the other addresses them, and prefers that speaker's messages", () => {
    const said = by("said", "user", "I joined a support group yesterday, it was powerful.");
    const asked = by("asked", "assistant", "So did Caroline join the support group after all?");
    const talk = [
      by("hey", "assistant", "Hey Caroline! How did the week go?"),
      by("thanks", "assistant", "That sounds lovely, Caroline!"),
      said,
      asked,
      by("mel", "user", "Thanks, Mel. See you soon!"),
    ];
    const question = "When did Caroline join the support group?";
    const shape = shapeQuestion(question);
    expect(shape.names.map((k) => shape.terms[k]?.term)).toEqual(["caroline"]);
    // Caroline is the user (the assistant addresses her): her own message, without her name, comes first.
    expect(order(question, talk)[0]).toBe("said");
    // Never addressed, the name is content: the message holding it with every other word comes first.
    expect(order(question, [said, asked])[0]).toBe("asked");
    // The assistant's name, addressed by the user: the assistant's messages are preferred.
    const both = [
      by("u", "user", "The boiler was fixed by the landlord on Monday."),
      by("a", "assistant", "The boiler was fixed by the landlord on Monday."),
      by("m1", "user", "Hey Mel! Long week."),
      by("m2", "user", "Good to hear, Mel."),
    ];
    expect(order("When was Mel's boiler fixed by the landlord?", both)[0]).toBe("a");
    // Names of both speakers: neither is preferred.
    const two = [...both, by("s1", "assistant", "Hi Sam, all good."), by("s2", "assistant", "Sure, Sam!")];
    const ranked = rankCandidates(
      shapeQuestion("When did Sam tell Mel the boiler was fixed?"),
      two,
      new Map(),
    );
    expect(ranked.find((c) => c.messageId === "u")?.score).toBe(
      ranked.find((c) => c.messageId === "a")?.score,
    );
  });

  it('reads a name that opens messages as a label ("Caroline: …") as their own speaker\'s, not an address', () => {
    const labelled = [
      by("u", "user", "Caroline: I joined a support group last night."),
      by("a", "assistant", "Mel: Did Caroline join the support group?"),
      by("u2", "user", "Caroline: Busy week at the support group."),
      by("a2", "assistant", "Mel: Sounds like a good group."),
    ];
    expect(order("When did Caroline join the support group?", labelled)[0]).toBe("u");
  });

  it("learns a Chinese name of address (小林) the same way", () => {
    const same = [by("u", "user", "我在市图书馆工作。"), by("a", "assistant", "我在市图书馆工作。")];
    const greetings = [
      by("g1", "assistant", "小林，听起来不错！"),
      by("g2", "assistant", "嗨，小林！祝你顺利。"),
    ];
    expect(shapeQuestion("小林在哪儿工作？").cjkNames).toEqual(["小林"]);
    expect(order("小林在哪儿工作？", [...same, ...greetings])[0]).toBe("u");
    const ranked = rankCandidates(shapeQuestion("小林在哪儿工作？"), same, new Map());
    expect(ranked[0]?.score).toBe(ranked[1]?.score);
    // A word that starts like a name of address (小时) is never used to address anyone.
    const hours = [...same, by("h1", "assistant", "大约两小时，也行。"), by("h2", "user", "一小时后。")];
    const r = rankCandidates(shapeQuestion("几小时工作？"), hours, new Map());
    expect(r.find((c) => c.messageId === "u")?.score).toBe(r.find((c) => c.messageId === "a")?.score);
  });

  it("takes a name mentioned, not addressed, or addressed by both speakers alike, as content", () => {
    const mentioned = [
      by("sister", "user", "My sister Anna starts at the bakery on Monday."),
      by("again", "user", "I had lunch with Anna and her dog."),
      by("other", "assistant", "Bakeries start early on Monday."),
    ];
    const shape = shapeQuestion("When does Anna start at the bakery?");
    // Not resolved: the name keeps its weight, and the message holding it with the rest comes first.
    expect(order("When does Anna start at the bakery?", mentioned)[0]).toBe("sister");
    const ranked = rankCandidates(shape, mentioned, new Map());
    expect(ranked[0]?.score).toBeGreaterThan(1);
    const mixed = [
      by("a1", "user", "Hey Robin, thanks."),
      by("a2", "assistant", "Hi Robin!"),
      by("u", "user", "The bakery opens at six."),
      by("a", "assistant", "The bakery opens at six."),
    ];
    const r = rankCandidates(shapeQuestion("When does Robin's bakery open?"), mixed, new Map());
    expect(r.find((c) => c.messageId === "u")?.score).toBe(r.find((c) => c.messageId === "a")?.score);
  });

  it("does not let a long message win on the number of words it holds alone", () => {
    const short = by("short", "assistant", "Delphine, the landlord, fixed the boiler.");
    const long = by(
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

describe("poolOf", () => {
  const slot = (name?: true) => ({ fts: "x", pg: "x", weight: 1, ...(name ? { name } : {}) });

  it("scores a document by the rarity of the slots it holds, and keeps the best 100 breaking ties to the newest and 100 to the oldest", () => {
    const ids = (from: number, to: number) => new Set(Array.from({ length: to - from }, (_, i) => from + i));
    const pool = poolOf(
      [slot(), slot()],
      [
        { ids: ids(0, 300), df: 300 },
        { ids: new Set([7, 250]), df: 2 },
      ],
      1000,
    );
    // The two best lead both halves: 100 + 100 places, 198 documents.
    expect(pool.size).toBe(198);
    expect(pool.get(7)).toBeGreaterThan(pool.get(8) ?? 0);
    expect(pool.has(250)).toBe(true);
    // Among the ties: the oldest and the newest ids, not the middle ones.
    expect(pool.has(0) && pool.has(299)).toBe(true);
    expect(pool.has(150)).toBe(false);
  });

  it("lets a common name add to what a document holds besides, never bring one in alone; a rare one may", () => {
    const many = new Set(Array.from({ length: 30 }, (_, i) => i + 1));
    const pool = poolOf(
      [slot(true), slot()],
      [
        { ids: many, df: 30 },
        { ids: new Set([3, 40]), df: 2 },
      ],
      500,
    );
    expect([...pool.keys()].sort((a, b) => a - b)).toEqual([3, 40]);
    expect(pool.get(3)).toBeGreaterThan(pool.get(40) ?? 0);
    // A name in few documents (a place, a brand) brings them in like any word.
    const rare = poolOf(
      [slot(true), slot()],
      [
        { ids: new Set([1, 2]), df: 2 },
        { ids: new Set([3]), df: 1 },
      ],
      500,
    );
    expect([...rare.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3]);
    // A question of names only still finds them.
    expect(poolOf([slot(true)], [{ ids: many, df: 30 }], 500).size).toBe(30);
  });

  it("marks the slot of a name the question writes", () => {
    const shape = shapeQuestion("When did Caroline go to the support group?");
    expect(shape.slots.filter((s) => s.name).map((s) => s.fts)).toEqual(['"caroline" OR "carolin"']);
    expect(shapeQuestion("when did caroline go?").slots.some((s) => s.name)).toBe(false);
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
