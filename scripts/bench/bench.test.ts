import { describe, expect, it } from "vitest";
import { demoReply } from "@/lib/llm/demo";
import { statedFacts } from "@/lib/llm/demo/extract";
import { chunkReply } from "@/lib/llm/wire";
import { lockfileCompatible } from "./compare";
import { parseOptions, QUICK } from "./config";
import { metaOf } from "./http";
import type { Statement } from "./instrument";
import { pinPlans, totalCpuMs } from "./multi";
import { branchPointSeq, factContent, poissonArrivals } from "./plan";
import { groupOf } from "./profile";
import { benchId, messageId, messageText, TEXT_POOL } from "./seed";
import { serverEnv } from "./server";
import { median, percentile, summarize } from "./stats";
import { answerText, w6Content } from "./streams";
import { shapeOf, signature } from "./workloads";

const stmt = (sql: string, rows: number): Statement => ({
  sql,
  kind: /^\s*SELECT|RETURNING/i.test(sql) ? "query" : "execute",
  rows,
  inTransaction: true,
  at: 0,
  ms: 0.1,
  args: [],
  argTypes: [],
});

describe("bench statistics", () => {
  it("uses nearest-rank percentiles, so a reported percentile is an observed value", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 90)).toBe(90);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it("takes the middle of an odd count and the mean of the middle two of an even count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(summarize([5, 1, 3])).toMatchObject({ n: 3, min: 1, median: 3, max: 5, mean: 3 });
  });
});

describe("bench options", () => {
  it("defaults to a full run on SQLite and rejects unknown flags", () => {
    expect(parseOptions([])).toEqual({
      quick: false,
      db: "sqlite",
      keep: false,
      help: false,
      memoryPolicy: "window",
      multi: 0,
      compare: null,
      profile: false,
      w6: null,
      w9: null,
      only: null,
    });
    expect(parseOptions(["--only", "w1,W10"])).toMatchObject({ only: ["w1", "w10"] });
    expect(parseOptions(["--w6", "200,1000"])).toMatchObject({ w6: [200, 1000] });
    expect(() => parseOptions(["--w6", "0"])).toThrow(/--w6/);
    expect(parseOptions(["--w9", "20,50"])).toMatchObject({ w9: [20, 50] });
    expect(() => parseOptions(["--w9", "0"])).toThrow(/--w9/);
    expect(parseOptions(["--quick", "--db", "postgres"])).toMatchObject({ quick: true, db: "postgres" });
    expect(parseOptions(["--memory-policy", "summary"])).toMatchObject({ memoryPolicy: "summary" });
    expect(() => parseOptions(["--memory-policy", "everything"])).toThrow(/window, tokens or summary/);
    expect(() => parseOptions(["--fast"])).toThrow();
  });
});

describe("bench seed data", () => {
  it("makes cuid-shaped ids and ~200-character texts", () => {
    expect(benchId("s", 42)).toMatch(/^c[a-z0-9]{24}$/);
    expect(messageId(10_000, 100_000)).toMatch(/^cm\d{23}$/);
    expect(messageId(1, 2)).not.toBe(messageId(2, 1));
    for (const text of TEXT_POOL) expect(text.length).toBeGreaterThanOrEqual(185);
    expect(messageText(3, 99_999).length).toBeLessThanOrEqual(210);
  });
});

describe("W1X messages", () => {
  it("state two facts the extraction finds, new at every turn", () => {
    const facts = [0, 1, 99].map((i) => statedFacts(factContent("W1X", i)));
    expect(facts[0]).toEqual(["I live in Lisbon district 0 now", "My locker number 0 is 1000"]);
    expect(new Set(facts.flat()).size).toBe(6);
    expect(factContent("W1X", 99).length).toBeLessThanOrEqual(210);
  });
});

describe("statement shapes", () => {
  it("reads verb, table and rows from both dialects' SQL", () => {
    const turn = shapeOf([
      stmt("BEGIN", 0),
      stmt('UPDATE "public"."ChatSession" SET "leaseId" = $1 WHERE "id" = $2 RETURNING "lastSeq"', 1),
      stmt("SELECT `main`.`MemorySnapshot`.`items` FROM `main`.`MemorySnapshot` WHERE `sessionId` = ?", 1),
      stmt("INSERT INTO `main`.`ChatMessage` (`id`) VALUES (?) RETURNING `id`", 1),
      stmt("COMMIT", 0),
    ]);
    expect(turn.shape.map((s) => `${s.verb} ${s.table}`)).toEqual([
      "BEGIN ",
      "UPDATE ChatSession",
      "SELECT MemorySnapshot",
      "INSERT ChatMessage",
      "COMMIT ",
    ]);
    expect(turn).toMatchObject({ statements: 5, rowsRead: 1, rowsWritten: 2, transactions: 1 });
    expect(signature(turn)).toContain("SELECT MemorySnapshot 1");
  });

  it("a signature ignores the order of statements outside a transaction, never the order inside one", () => {
    const at = (sql: string, inTransaction: boolean): Statement => ({ ...stmt(sql, 1), inTransaction });
    const user = at('SELECT "id" FROM "User" WHERE "id" = $1', false);
    const chat = at('SELECT "id" FROM "ChatSession" WHERE "id" = $1', false);
    const begin = at("BEGIN", true);
    const update = at('UPDATE "ChatSession" SET "x" = $1', true);
    const insert = at('INSERT INTO "ChatMessage" ("id") VALUES ($1)', true);
    const commit = at("COMMIT", true);
    const sig = (...s: Statement[]) => signature(shapeOf(s));
    const expected = sig(user, chat, begin, update, insert, commit);
    // A read sent before the transaction may finish after its BEGIN.
    expect(sig(chat, begin, user, update, insert, commit)).toBe(expected);
    expect(sig(user, chat, begin, insert, update, commit)).not.toBe(expected);
    expect(sig(user, begin, update, insert, commit)).not.toBe(expected);
  });
});

describe("workloads added with the heartbeat and cluster work", () => {
  it("parses --multi, --compare and --profile, and refuses one instance", () => {
    const o = parseOptions(["--multi", "2", "--compare", "f74b6c2", "--profile"]);
    expect(o).toMatchObject({ multi: 2, compare: "f74b6c2", profile: true });
    expect(parseOptions([])).toMatchObject({ multi: 0, compare: null, profile: false });
    expect(() => parseOptions(["--multi", "1"])).toThrow(/--multi/);
  });

  it("starts servers at the settings' defaults, whatever the benchmark's own process set (recall included)", () => {
    const before = process.env.MEMORY_RECALL;
    process.env.MEMORY_RECALL = "off"; // what the in-process phase sets in this process
    try {
      expect(serverEnv({}).MEMORY_RECALL).toBe("");
      expect(serverEnv({ MEMORY_RECALL: "all" }).MEMORY_RECALL).toBe("all");
    } finally {
      if (before === undefined) delete process.env.MEMORY_RECALL;
      else process.env.MEMORY_RECALL = before;
    }
  });

  it("adds the CPU time of several processes, or says it cannot when one of them is unreadable", () => {
    expect(totalCpuMs([() => 12, () => 30])()).toBe(42);
    expect(totalCpuMs([() => 12, () => null])()).toBeNull();
  });

  it("keeps k servers on cores 0..k-1 and the client on the rest, never on a server's core", () => {
    expect(pinPlans(2, 2)).toEqual([{ servers: ["0"], client: "1" }]);
    expect(pinPlans(3, 4)).toEqual([
      { servers: ["0"], client: "1-3" },
      { servers: ["0", "1"], client: "2-3" },
      { servers: ["0", "1", "2"], client: "3" },
    ]);
    expect(pinPlans(8, 4)).toHaveLength(3);
    expect(pinPlans(2, 1)).toEqual([]);
  });

  it("groups profile frames by package, through the original source path", () => {
    expect(groupOf("node_modules/@prisma/client/runtime/client.js")).toBe("Prisma");
    expect(groupOf("node_modules/@prisma/adapter-pg/dist/index.mjs")).toBe("Prisma (driver adapter)");
    expect(groupOf("node_modules/next/dist/server/base-server.js")).toBe("Next.js");
    expect(groupOf("node:internal/webstreams/readablestream")).toBe("web streams");
    expect(groupOf("node:net")).toBe("Node.js core");
    expect(groupOf("node_modules/gpt-tokenizer/src/BytePairEncodingCore.ts")).toBe("gpt-tokenizer");
    expect(groupOf("lib/chat/turn.ts")).toBe("app code");
    expect(groupOf("", "(garbage collector)")).toBe("GC");
    expect(groupOf("wasm://wasm/00c9b26e")).toBe("Prisma (query compiler, wasm)");
  });

  it("reuses node_modules only when the other lockfile pins nothing this one does not pin the same", () => {
    const lock = (pkgs: Record<string, string>) =>
      JSON.stringify({
        packages: Object.fromEntries(
          Object.entries(pkgs).map(([k, v]) => [`node_modules/${k}`, { version: v }]),
        ),
      });
    const here = lock({ next: "16.4.6", swr: "2.5.1" });
    expect(lockfileCompatible(here, here)).toBe("identical");
    expect(lockfileCompatible(here, lock({ next: "16.4.6" }))).toBe("superset");
    expect(lockfileCompatible(here, lock({ next: "16.4.5" }))).toBeNull();
    expect(lockfileCompatible(here, lock({ react: "19.0.0" }))).toBeNull();
  });

  it("rebuilds a streamed answer from its delta events", () => {
    const body =
      'event: meta\ndata: {"type":"meta"}\n\nevent: delta\ndata: {"type":"delta","text":"Hello"}\n\n' +
      'event: delta\ndata: {"type":"delta","text":" world"}\n\nevent: done\ndata: {"type":"done","status":"complete"}\n\n';
    expect(answerText(body)).toBe("Hello world");
  });

  it("branches W1B sessions at an assistant message in the middle, and reads a turn's ids from its meta event", () => {
    for (const h of [10, 1_000, 100_000]) {
      const seq = branchPointSeq(h);
      expect(seq % 2).toBe(0); // seeded seqs alternate user (odd) / assistant (even)
      expect(seq).toBeGreaterThanOrEqual(2);
      expect(seq).toBeLessThanOrEqual(h / 2);
    }
    const body =
      'event: meta\ndata: {"type":"meta","userMessage":{"id":"q1"},"assistantMessage":{"id":"a1"}}\n\n' +
      'event: done\ndata: {"type":"done","status":"complete"}\n\n';
    expect(metaOf(body)).toEqual({ questionId: "q1", answerId: "a1" });
    expect(() => metaOf("event: done\ndata: {}\n\n")).toThrow(/no meta event/);
  });

  it("asks W6 questions whose offline answer lasts ~2 s at 40 tokens/s (first token after 775 ms)", () => {
    const history = Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      text: `message ${i}`,
    }));
    for (const i of [0, 7, 999]) {
      const tokens = chunkReply(demoReply([...history, { role: "user", text: w6Content(i) }])).length;
      const ms = QUICK.w6FirstTokenDelayMs + (tokens - 1) * QUICK.w6TokenDelayMs;
      expect(ms).toBeGreaterThan(1800);
      expect(ms).toBeLessThan(2200);
    }
  });

  it("plans W9's arrivals as a seeded Poisson process: the same times every run, about rate × duration of them", () => {
    const a = poissonArrivals(50, 60_000, 2);
    expect(poissonArrivals(50, 60_000, 2)).toEqual(a);
    expect(poissonArrivals(50, 60_000, 3)).not.toEqual(a);
    expect(a.length).toBeGreaterThan(2_700); // 3 000 expected, σ ≈ 55
    expect(a.length).toBeLessThan(3_300);
    expect(a.every((t, i) => t > (a[i - 1] ?? 0) && t < 60_000)).toBe(true);
  });

  it("asks W9 questions whose offline answer is exactly the asked number of tokens", () => {
    const reply = demoReply([{ role: "user", text: `Count to ${QUICK.w9AnswerTokens}` }]);
    expect(chunkReply(reply)).toHaveLength(QUICK.w9AnswerTokens);
  });
});
