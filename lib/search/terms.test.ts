import { describe, expect, it } from "vitest";
import {
  ftsBody,
  ftsMatch,
  indexTerms,
  MAX_QUERY_GROUPS,
  MAX_WORD_LENGTH,
  normalizeWord,
  parseQuery,
  pgBodyQuery,
  pgOwnerLexeme,
  pgTermsVector,
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

describe("parseQuery", () => {
  it("makes a group per word; the last word is a prefix unless a space follows it", () => {
    expect(parseQuery("budget meet").groups).toEqual([
      { terms: ["budget"], prefix: false },
      { terms: ["meet"], prefix: true },
    ]);
    expect(parseQuery("budget meet ").groups).toEqual([
      { terms: ["budget"], prefix: false },
      { terms: ["meet"], prefix: false },
    ]);
    expect(parseQuery("a").groups).toEqual([{ terms: ["a"], prefix: false }]);
  });

  it("turns a CJK run into the phrase of its bigrams, and one character into a prefix", () => {
    expect(parseQuery("松石").groups).toEqual([{ terms: ["松石"], prefix: false }]);
    expect(parseQuery("绿松石").groups).toEqual([{ terms: ["绿松", "松石"], prefix: false }]);
    expect(parseQuery("链").groups).toEqual([{ terms: ["链"], prefix: true }]);
  });

  it("keeps separate runs separate, mixed with words", () => {
    expect(parseQuery("绿松石 手链 turquoise").groups).toEqual([
      { terms: ["绿松", "松石"], prefix: false },
      { terms: ["手链"], prefix: false },
      { terms: ["turquoise"], prefix: true },
    ]);
    expect(parseQuery("用Python写").groups).toEqual([
      { terms: ["用"], prefix: true },
      { terms: ["python"], prefix: false },
      { terms: ["写"], prefix: true },
    ]);
  });

  it("drops repeated groups and keeps at most MAX_QUERY_GROUPS", () => {
    expect(parseQuery("cat cat dog ").groups).toHaveLength(2);
    const many = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    expect(parseQuery(`${many} `).groups).toHaveLength(MAX_QUERY_GROUPS);
  });

  it("has no groups for a query of punctuation", () => {
    expect(parseQuery(" ?! ").groups).toEqual([]);
  });

  it("finds what the index holds: every query term of a run is an index term of the same text", () => {
    const text = "我昨天买了一条绿松石手链";
    const indexed = new Set(indexTerms(text));
    for (const q of ["松石", "绿松石", "手链", "昨天买", "链"]) {
      for (const g of parseQuery(q).groups) {
        for (const term of g.terms) {
          expect(g.prefix ? [...indexed].some((t) => t.startsWith(term)) : indexed.has(term)).toBe(true);
        }
      }
    }
  });
});

describe("ftsMatch", () => {
  it("ANDs the owner column with every group in the body, quoting terms", () => {
    expect(ftsMatch(parseQuery("绿松石 budg"), "u123")).toBe(
      'owner : "u123" AND body : ("绿松 松石" AND "budg"*)',
    );
  });

  it("is null without terms", () => {
    expect(ftsMatch(parseQuery("!!"), "u1")).toBeNull();
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

  it("builds the tsquery: phrases with <->, prefixes with :*, groups with &", () => {
    expect(pgBodyQuery(parseQuery("绿松石 budg"))).toBe("('绿松' <-> '松石') & 'budg':*");
    expect(pgBodyQuery(parseQuery("链"))).toBe("'链':*");
    expect(pgBodyQuery(parseQuery("..."))).toBeNull();
  });
});
