import { describe, expect, it } from "vitest";
import {
  ftsQuestionMatch,
  isStopTerm,
  MAX_QUESTION_TERMS,
  parseQuestion,
  pgQuestionQuery,
  pgQuestionTermExactQuery,
  pgQuestionTermQuery,
  questionTermMatches,
} from "./question";
import {
  ftsBody,
  indexTerms,
  MAX_WORD_LENGTH,
  normalizeWord,
  pgOwnerLexeme,
  pgTermsVector,
  stemOf,
  tokenize,
} from "./terms";

describe("normalizeWord", () => {
  it("folds case, accents and compatibility forms, keeping letters and digits", () => {
    expect(normalizeWord("Café")).toBe("cafe");
    expect(normalizeWord("ＦＵＬＬ")).toBe("full");
    expect(normalizeWord("Ångström")).toBe("angstrom");
    expect(normalizeWord("ﬁle")).toBe("file");
    expect(normalizeWord("H₂O")).toBe("h2o");
  });

  it("cuts very long words to the same prefix on both sides", () => {
    const long = "x".repeat(200);
    expect(normalizeWord(long)).toHaveLength(MAX_WORD_LENGTH);
  });
});

describe("tokenize", () => {
  it("splits Latin text into normalized words with their offsets in the original", () => {
    const text = "Hello, wörld! it's 2026.";
    expect(tokenize(text)).toEqual([
      { term: "hello", start: 0, end: 5, cjk: false },
      { term: "world", start: 7, end: 12, cjk: false },
      { term: "it", start: 14, end: 16, cjk: false },
      { term: "s", start: 17, end: 18, cjk: false },
      { term: "2026", start: 19, end: 23, cjk: false },
    ]);
  });

  it("cuts a CJK run into overlapping bigrams and its last character", () => {
    expect(tokenize("绿松石手链").map((t) => t.term)).toEqual(["绿松", "松石", "石手", "手链", "链"]);
    const [first, , , , last] = tokenize("买绿松石手链");
    expect(first).toEqual({ term: "买绿", start: 0, end: 2, cjk: true });
    expect(last).toEqual({ term: "手链", start: 4, end: 6, cjk: true });
  });

  it("keeps a one-character run as itself", () => {
    expect(tokenize("a 松 b").map((t) => t.term)).toEqual(["a", "松", "b"]);
  });

  it("separates CJK from Latin written without spaces, and runs split by punctuation", () => {
    expect(tokenize("用Python写，松石。").map((t) => t.term)).toEqual(["用", "python", "写", "松石", "石"]);
  });

  it("treats Japanese kana and Korean hangul like Chinese", () => {
    expect(tokenize("カタカナ").map((t) => t.term)).toEqual(["カタ", "タカ", "カナ", "ナ"]);
    expect(tokenize("ひらがな").map((t) => t.term)).toEqual(["ひら", "らが", "がな", "な"]);
    expect(tokenize("검색을").map((t) => t.term)).toEqual(["검색", "색을", "을"]);
  });

  it("folds half-width katakana and compatibility ideographs per character", () => {
    expect(tokenize("ｶﾀ").map((t) => t.term)).toEqual(["カタ", "タ"]);
  });

  it("measures offsets in UTF-16 units across characters outside the BMP", () => {
    const text = "𠀋𠀌 ok";
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.term)).toEqual(["𠀋𠀌", "𠀌", "ok"]);
    expect(text.slice(tokens[0]?.start, tokens[0]?.end)).toBe("𠀋𠀌");
    expect(text.slice(tokens[2]?.start, tokens[2]?.end)).toBe("ok");
  });

  it("ignores punctuation, symbols and emoji", () => {
    expect(tokenize("— … !!! 🎉 <> &").map((t) => t.term)).toEqual([]);
  });
});

describe("indexTerms / ftsBody", () => {
  it("are the terms in order, space separated for FTS5", () => {
    expect(indexTerms("The 松石 ring")).toEqual(["the", "松石", "石", "ring"]);
    expect(ftsBody("The 松石 ring")).toBe("the 松石 石 ring");
    expect(ftsBody("!!!")).toBe("");
  });
});

describe("stems", () => {
  it("indexes a word followed by its Porter stem when that differs", () => {
    expect(indexTerms("We named him Pepper")).toEqual(["we", "named", "name", "him", "pepper"]);
    expect(stemOf("studying")).toBe("studi");
    expect(stemOf("cat")).toBeNull();
    expect(stemOf("h2o")).toBeNull();
  });

  it("keeps CJK runs contiguous: stems only follow Latin words", () => {
    expect(indexTerms("learning 绿松石")).toEqual(["learning", "learn", "绿松", "松石", "石"]);
  });
});

const terms = (q: string) => parseQuestion(q).terms.map((t) => t.term);

describe("parseQuestion", () => {
  it("keeps the content words of a question, with their stems, and drops English stop words", () => {
    expect(terms("When did I go to the support group?")).toEqual(["go", "support", "group"]);
    const [calling] = parseQuestion("calling the dog ").terms;
    expect(calling).toEqual({ term: "calling", stem: "call", prefix: false });
  });

  it("makes the last word a prefix while it is typed", () => {
    expect(parseQuestion("budget meet").terms.at(-1)).toEqual({ term: "meet", stem: null, prefix: true });
    expect(parseQuestion("budget meet ").terms.at(-1)?.prefix).toBe(false);
    expect(parseQuestion("a").terms).toEqual([{ term: "a", stem: null, prefix: false }]);
  });

  it("cuts Chinese into bigrams and drops those that straddle a stop character", () => {
    expect(terms("我家宠物叫什么名字来着？")).toEqual(["家宠", "宠物", "物叫", "名字"]);
    expect(isStopTerm("什么")).toBe(true);
    expect(isStopTerm("宠物")).toBe(false);
    expect(terms("绿松石 手链 turquoise")).toEqual(["绿松", "松石", "手链", "turquoise"]);
  });

  it("makes a one-character run a prefix and leaves out a run's trailing character", () => {
    expect(parseQuestion("链").terms).toEqual([{ term: "链", stem: null, prefix: true }]);
    expect(terms("松石")).toEqual(["松石"]);
  });

  it("searches stop words when the question has nothing else, and nothing for punctuation", () => {
    expect(terms("the")).toEqual(["the"]);
    expect(terms(" ?! ")).toEqual([]);
  });

  it("drops repeated terms and keeps at most MAX_QUESTION_TERMS", () => {
    expect(terms("cat cat dog ")).toEqual(["cat", "dog"]);
    const many = Array.from({ length: 40 }, (_, i) => `w${i}x`).join(" ");
    expect(terms(`${many} `)).toHaveLength(MAX_QUESTION_TERMS);
  });

  it("matches what the index holds: the word, its stem, or a longer word for a prefix", () => {
    const held = new Set(indexTerms("We named the puppy Pepper; conversations"));
    const [name, conv] = parseQuestion("name conv").terms;
    expect(questionTermMatches(held, name as never)).toBe(true);
    expect(questionTermMatches(held, conv as never)).toBe(true);
    const [dog] = parseQuestion("dog ").terms;
    expect(questionTermMatches(held, dog as never)).toBe(false);
    const indexed = new Set(indexTerms("我昨天买了一条绿松石手链"));
    for (const t of parseQuestion("绿松石手链").terms) expect(questionTermMatches(indexed, t)).toBe(true);
  });
});

describe("ftsQuestionMatch", () => {
  it("ANDs the owner column with any of the terms, stems and prefixes, quoting terms", () => {
    expect(ftsQuestionMatch(parseQuestion("绿松石 calling budg"), "u123")).toBe(
      'owner : "u123" AND body : ("绿松" OR "松石" OR "calling" OR "call" OR "budg"*)',
    );
  });

  it("is null without terms", () => {
    expect(ftsQuestionMatch(parseQuestion("!!"), "u1")).toBeNull();
  });
});

describe("PostgreSQL literals", () => {
  it("writes each term once with its positions, and the owner lexeme without one", () => {
    expect(pgTermsVector("the cat and the 松石", "u1")).toBe(
      "'the':1,4 'cat':2 'and':3 '松石':5 '石':6 '@u1'",
    );
  });

  it("escapes quotes and backslashes in lexemes", () => {
    expect(pgOwnerLexeme("o'k\\")).toBe("'@o''k\\\\'");
  });

  it("keeps at most 256 positions per lexeme and positions within 16383", () => {
    const vector = pgTermsVector(Array.from({ length: 17_000 }, () => "la").join(" "), "u");
    const positions = vector.match(/^'la':([\d,]+)/)?.[1]?.split(",") ?? [];
    expect(positions).toHaveLength(256);
    const far = pgTermsVector(`${"x ".repeat(16_500)}end`, "u");
    expect(far).toContain("'end':16383");
  });

  it("builds the question's tsquery: any term or stem with |, prefixes with :*", () => {
    expect(pgQuestionQuery(parseQuestion("绿松石 calling budg"))).toBe(
      "'绿松' | '松石' | 'calling' | 'call' | 'budg':*",
    );
    expect(pgQuestionQuery(parseQuestion("链"))).toBe("'链':*");
    expect(pgQuestionQuery(parseQuestion("..."))).toBeNull();
  });

  it("builds each term's tsquery, and without the prefix of the word being typed (a lone CJK character keeps it)", () => {
    const terms = parseQuestion("calling 链 budgets").terms;
    expect(terms.map(pgQuestionTermQuery)).toEqual([
      "'calling' | 'call'",
      "'链':*",
      "'budgets':* | 'budget'",
    ]);
    expect(terms.map(pgQuestionTermExactQuery)).toEqual([
      "'calling' | 'call'",
      "'链':*",
      "'budgets' | 'budget'",
    ]);
  });
});
