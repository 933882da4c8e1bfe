import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { ftsBody, pgTermsVector } from "@/lib/search/terms";
import { withDatabase } from "../lib/database-url";
import { dropDatabase, migrateDatabase } from "../lib/migrate";

// npm run bench:search -- --db sqlite|postgres [--messages 1000000] [--searches 50] [--keep] [--url <database url>]
//
// Search at scale (docs/decisions/017-search.md): seeds N messages (mixed English and Chinese, 1000 users,
// 40-message conversations) into a fresh database with bulk inserts, builds the search index with lib/search's
// own preprocessing, then times searches of the heaviest user (2% of all messages) through searchMessagesForUser,
// the function GET /api/search calls. Prints the seed/index time and the median and p90 per query kind.
// --keep leaves the seeded database behind and prints its URL; --url times searches on such a database again (its
// pending migrations applied, no seeding), so a change to the search itself is measured without seeding anew.

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? (args[i + 1] as string) : fallback;
};
const DIALECT = arg("db", "sqlite");
const MESSAGES = Number(arg("messages", "1000000"));
const SEARCHES = Number(arg("searches", "50"));
const KEEP = args.includes("--keep");
const REUSE = arg("url", "");
const USERS = 1000;
const HEAVY_SHARE = 0.02;
const PER_SESSION = 40;

if (!["sqlite", "postgres"].includes(DIALECT) || !Number.isInteger(MESSAGES) || MESSAGES < PER_SESSION * 10) {
  console.error("usage: npm run bench:search -- --db sqlite|postgres [--messages N≥400] [--searches N]");
  process.exit(2);
}

// ---- deterministic text ------------------------------------------------------------------------------------------

let seed = 88172645;
const rand = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
};
/** An index in [0, n) drawn from a Zipf-like distribution (rank 0 most frequent). */
const zipf = (n: number) => Math.min(n - 1, Math.floor(Math.exp(rand() * Math.log(n + 1)) - 1));

const ENGLISH_TOP = (
  "the a of to and in that is for on with as it by this be are from at or an was not which have you we can " +
  "project budget meeting notes schedule garden recipe travel invoice draft review weather library kitchen " +
  "station picture window system module question answer summary river mountain coffee morning evening report " +
  "customer release version update planning design network printer memory search history conversation database " +
  "turquoise bracelet holiday airport contract salary doctor museum concert bicycle"
).split(" ");
const SYLLABLES = "ka lo mi ne su ta ri po de fa gu hi jo ke lu ma no pe qu ra se ti vo wa ya ze".split(" ");
const ENGLISH = [
  ...ENGLISH_TOP,
  ...Array.from({ length: 4000 }, (_, i) => {
    let w = "";
    for (let k = i + 1; k > 0; k = Math.floor(k / SYLLABLES.length)) w += SYLLABLES[k % SYLLABLES.length];
    return `${w}n`;
  }),
];
const HAN =
  "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理世车".split(
    "",
  );
const CHINESE = [
  "松石",
  "绿松石",
  "手链",
  "会议",
  "预算",
  "天气",
  "咖啡",
  "旅行",
  "数据库",
  "搜索",
  "记忆",
  "对话",
  ...Array.from({ length: 4000 }, () => {
    const len = rand() < 0.75 ? 2 : 3;
    return Array.from({ length: len }, () => HAN[zipf(HAN.length)]).join("");
  }),
];

function englishSentence(words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(ENGLISH[zipf(ENGLISH.length)] as string);
  return `${out.join(" ")}.`;
}

function chineseSentence(words: number): string {
  let s = "";
  for (let i = 0; i < words; i++) {
    s += CHINESE[zipf(CHINESE.length)];
    if (rand() < 0.12) s += "，";
  }
  return `${s}。`;
}

function messageText(): string {
  const r = rand();
  if (r < 0.6) return englishSentence(20 + Math.floor(rand() * 40));
  if (r < 0.85) return chineseSentence(15 + Math.floor(rand() * 30));
  return `${englishSentence(10 + Math.floor(rand() * 15))} ${chineseSentence(8 + Math.floor(rand() * 15))}`;
}

const QUERIES: [kind: string, q: string][] = [
  ...[
    "project",
    "meeting",
    "coffee",
    "turquoise",
    "bracelet",
    "history",
    "the",
    "printer",
    "museum",
    "airport",
  ].map((q) => ["english word", q] as [string, string]),
  ...[ENGLISH[200], ENGLISH[900], ENGLISH[2500], ENGLISH[3900], ENGLISH[120]].map(
    (q) => ["english rare", q as string] as [string, string],
  ),
  ...["budget meeting", "coffee morning", "turquoise bracelet", "search history", "the project"].map(
    (q) => ["english 2 words", q] as [string, string],
  ),
  ...["松石", "手链", "会议", "预算", "咖啡", CHINESE[40], CHINESE[300], CHINESE[2000]].map(
    (q) => ["chinese word", q as string] as [string, string],
  ),
  ...["绿松石", "数据库", "绿松石 手链", "会议 预算"].map((q) => ["chinese phrase", q] as [string, string]),
  ...["coffee 咖啡", "turquoise 松石", "memory 记忆"].map((q) => ["mixed", q] as [string, string]),
  // Natural questions (issue 23): any term may match, so the common words are what a question costs.
  ...[
    "when did I book the coffee meeting at the museum",
    "what was the budget in the project review report",
    "which doctor did we talk about before the holiday",
    "where is the printer for the release notes",
    "how did the conversation about my salary go",
  ].map((q) => ["english question", q] as [string, string]),
  ...["我们什么时候讨论了会议预算", "上次说的绿松石手链在哪里买的"].map(
    (q) => ["chinese question", q] as [string, string],
  ),
];

// ---- database ------------------------------------------------------------------------------------------------------

const userId = (u: number) => `cbenchuser${String(u).padStart(15, "0")}`;
const sessionId = (s: number) => `cbenchsess${String(s).padStart(15, "0")}`;
const msgId = (m: number) => `cbenchmsg${String(m).padStart(16, "0")}`;
const BASE_MS = Date.now() - 365 * 24 * 3600 * 1000;

/** Sessions in order; the heavy user (0) gets HEAVY_SHARE of them, the others the rest round-robin. */
function plan() {
  const sessions = Math.ceil(MESSAGES / PER_SESSION);
  const heavy = Math.round(sessions * HEAVY_SHARE);
  return Array.from({ length: sessions }, (_, s) => ({
    s,
    user:
      s % Math.round(1 / HEAVY_SHARE) === 0 && s / Math.round(1 / HEAVY_SHARE) < heavy
        ? 0
        : 1 + (s % (USERS - 1)),
    messages: Math.min(PER_SESSION, MESSAGES - s * PER_SESSION),
  }));
}

interface Row {
  id: string;
  session: string;
  user: string;
  seq: number;
  role: "user" | "assistant";
  text: string;
  at: number;
}

function* rows(): Generator<Row[]> {
  let m = 0;
  let batch: Row[] = [];
  for (const p of plan()) {
    for (let seq = 1; seq <= p.messages; seq++) {
      batch.push({
        id: msgId(m),
        session: sessionId(p.s),
        user: userId(p.user),
        seq,
        role: seq % 2 ? "user" : "assistant",
        text: messageText(),
        at: BASE_MS + m * 1000,
      });
      m++;
      if (batch.length === 10_000) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

const sqliteTime = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");

async function seedSqlite(file: string): Promise<void> {
  const conn = new Database(file);
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = OFF");
  conn.pragma("foreign_keys = ON");
  const insUser = conn.prepare(
    `INSERT INTO "User" ("id", "email", "name", "passwordHash") VALUES (?, ?, ?, 'x')`,
  );
  const insSession = conn.prepare(
    `INSERT INTO "ChatSession" ("id", "userId", "title", "createdAt", "updatedAt", "lastSeq") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insMessage = conn.prepare(
    `INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "role", "text", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insDoc = conn.prepare(
    `INSERT INTO "SearchDoc" ("messageId", "userId", "sessionId", "createdAt") VALUES (?, ?, ?, ?) RETURNING "id"`,
  );
  const insFts = conn.prepare(`INSERT INTO "SearchFts" (rowid, owner, body) VALUES (?, ?, ?)`);
  const { ownerToken } = await import("@/lib/db/search");
  conn.transaction(() => {
    for (let u = 0; u < USERS; u++) insUser.run(userId(u), `bench${u}@example.test`, `Bench ${u}`);
    for (const p of plan()) {
      const at = sqliteTime(BASE_MS);
      insSession.run(sessionId(p.s), userId(p.user), `Conversation ${p.s}`, at, at, p.messages);
    }
  })();
  for (const batch of rows()) {
    conn.transaction(() => {
      for (const r of batch) {
        const at = sqliteTime(r.at);
        insMessage.run(r.id, r.session, r.seq, r.role, r.text, at);
        const doc = insDoc.get(r.id, r.user, r.session, at) as { id: number };
        insFts.run(doc.id, ownerToken(r.user), ftsBody(r.text));
      }
    })();
  }
  conn.pragma("wal_checkpoint(TRUNCATE)");
  conn.exec("ANALYZE");
  conn.close();
}

async function seedPostgres(url: string): Promise<void> {
  const { ownerToken } = await import("@/lib/db/search");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("SET synchronous_commit = off");
  await client.query("SET maintenance_work_mem = '256MB'");
  // The GIN index is built once after the load, as CREATE INDEX does fastest.
  await client.query(`DROP INDEX "SearchDoc_terms_idx"`);
  const users = Array.from({ length: USERS }, (_, u) => u);
  await client.query(
    `INSERT INTO "User" ("id", "email", "name", "passwordHash")
     SELECT u, 'bench' || i || '@example.test', 'Bench ' || i, 'x' FROM unnest($1::text[], $2::int[]) AS t(u, i)`,
    [users.map(userId), users],
  );
  const sessions = plan();
  await client.query(
    `INSERT INTO "ChatSession" ("id", "userId", "title", "lastSeq")
     SELECT s, u, 'Conversation ' || n, m FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS t(s, u, n, m)`,
    [
      sessions.map((p) => sessionId(p.s)),
      sessions.map((p) => userId(p.user)),
      sessions.map((p) => p.s),
      sessions.map((p) => p.messages),
    ],
  );
  for (const batch of rows()) {
    await client.query(
      `INSERT INTO "ChatMessage" ("id", "sessionId", "seq", "role", "text", "createdAt")
       SELECT id, s, seq, role::"MessageRole", txt, at FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::timestamp[])
         AS t(id, s, seq, role, txt, at)`,
      [
        batch.map((r) => r.id),
        batch.map((r) => r.session),
        batch.map((r) => r.seq),
        batch.map((r) => r.role),
        batch.map((r) => r.text),
        batch.map((r) => new Date(r.at).toISOString()),
      ],
    );
    await client.query(
      `INSERT INTO "SearchDoc" ("messageId", "userId", "sessionId", "createdAt", "terms")
       SELECT id, u, s, at, terms::tsvector FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamp[], $5::text[])
         AS t(id, u, s, at, terms)`,
      [
        batch.map((r) => r.id),
        batch.map((r) => r.user),
        batch.map((r) => r.session),
        batch.map((r) => new Date(r.at).toISOString()),
        batch.map((r) => pgTermsVector(r.text, ownerToken(r.user))),
      ],
    );
  }
  await client.query(`CREATE INDEX "SearchDoc_terms_idx" ON "SearchDoc" USING GIN ("terms")`);
  await client.query("VACUUM ANALYZE");
  await client.end();
}

// ---- run -----------------------------------------------------------------------------------------------------------

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};

async function main() {
  let url: string;
  let cleanup: () => Promise<void>;
  if (REUSE) {
    url = REUSE;
    cleanup = async () => {};
  } else if (DIALECT === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-search-"));
    url = `file:${path.join(dir, "bench.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const server = process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
    url = withDatabase(server, `recall_bench_search_${randomBytes(4).toString("hex")}`);
    cleanup = () => dropDatabase(url);
  }
  process.env.DATABASE_URL = url;
  process.env.AUTH_SECRET ??= randomBytes(24).toString("hex");
  try {
    await migrateDatabase(url);
    const started = performance.now();
    if (REUSE) {
      // A kept database: already seeded.
    } else if (DIALECT === "sqlite") await seedSqlite(url.slice("file:".length));
    else await seedPostgres(url);
    const seedSeconds = (performance.now() - started) / 1000;

    const { searchMessagesForUser } = await import("@/lib/db/search");
    const { db } = await import("@/lib/db/client");
    const heavy = userId(0);
    const owned = await db.searchDoc.count({ where: { userId: heavy } });
    for (const [, q] of QUERIES.slice(0, 5)) await searchMessagesForUser({ userId: heavy, q }); // warm-up

    const times: { kind: string; q: string; ms: number; hits: number }[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const [kind, q] = QUERIES[i % QUERIES.length] as [string, string];
      const t = performance.now();
      const page = await searchMessagesForUser({ userId: heavy, q });
      times.push({ kind, q, ms: performance.now() - t, hits: page.results.length });
    }
    await db.$disconnect();

    const all = times.map((t) => t.ms);
    console.log(
      `search bench (${DIALECT}): ${MESSAGES.toLocaleString("en")} messages, ${USERS} users, searching user owns ` +
        `${owned.toLocaleString("en")}; ${REUSE ? "database reused" : `seed + index ${seedSeconds.toFixed(0)} s`}`,
    );
    console.log(
      `all ${times.length} searches: median ${quantile(all, 0.5).toFixed(1)} ms, p90 ${quantile(all, 0.9).toFixed(1)} ms, max ${Math.max(...all).toFixed(1)} ms`,
    );
    const kinds = [...new Set(times.map((t) => t.kind))];
    for (const kind of kinds) {
      const xs = times.filter((t) => t.kind === kind);
      const ms = xs.map((t) => t.ms);
      console.log(
        `  ${kind.padEnd(16)} n=${String(xs.length).padStart(2)} median ${quantile(ms, 0.5).toFixed(1).padStart(6)} ms  p90 ${quantile(ms, 0.9).toFixed(1).padStart(6)} ms  (${xs.map((t) => `${t.q}:${t.hits}`).join(", ")})`,
      );
    }
  } finally {
    if (KEEP || REUSE) console.log(`kept ${url}`);
    else await cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
