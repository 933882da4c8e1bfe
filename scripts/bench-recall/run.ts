import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BenchError } from "../bench/http";
import { fmtInt, table } from "../bench/report";
import { assertBuilt, serverEnv, startServer } from "../bench/server";
import { withDatabase } from "../lib/database-url";
import { dropDatabase, migrateDatabase } from "../lib/migrate";
import { baselineHits } from "./baseline";
import {
  FULL_OPTIONS,
  type GeneratedConversation,
  type GeneratedMessage,
  generate,
  QUICK_OPTIONS,
} from "./generate";
import { addressedByName, labelledByName, secondPerson, thirdPerson } from "./person";
import { type Miss, missesOf, pct, ROWS, type RowResult, runRow, summarize } from "./rows";

// npm run bench:recall [-- --quick] [--db sqlite|postgres] [--only window,tokens,...] [--json file] [--misses file]
//                       [--speaker user|assistant] [--person third [--labels]] [--seed N] [--messages N]
//                       [--wording fresh]
//
// How much of what answers a question reaches the model's context. Generated conversations (./generate.ts) are
// imported through POST /api/import, each question is asked through the real turn API as a new branch after the
// conversation's last message, and the context recorded for that turn is read back from
// GET /api/sessions/:id/turns/:messageId/context. A question counts when every one of its evidence messages is in
// that context verbatim; a summary that merely covers an evidence message's range is reported separately.
// "baseline" is not the app: a plain any-term BM25 over the conversation with neighbours, filled to 2 000 tokens,
// computed here, so the difficulty of this data can be compared with other benchmarks.
// --speaker assistant swaps the roles of every message: the facts are then the assistant's, as when a conversation
// between two people is imported with one of them as the assistant, and the questions ask "you" instead of "I".
// --person third asks about the speaker by a name instead ("Where did Sam work…", as a benchmark of two people's
// conversations asks): lexically the same question without a pronoun, the grammar only roughly right; and the two
// speakers address each other by name now and then ("Sam, …", "… Thanks, Alex!"), as two people in a chat do.
// --labels (with --person third) opens every message with its speaker's name ("Sam: …"), as an import may.
// --seed and --messages generate other conversations (another seed; another length per conversation), to see
// whether a change holds beyond the default data.
// --wording fresh asks other wordings of the same questions (facts.ts `fresh`), written after the ranking and its
// expansion groups were tuned on the default ones and never used to tune anything: the gap between the two figures
// is how much of the default figure is fit to its wording.

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
/** A whole-number option of at least `min` (undefined: not given). */
function wholeOption(name: string, min: number): number | undefined {
  const value = option(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new BenchError(`--${name} must be a whole number ≥ ${min}`);
  return n;
}
const quick = args.includes("--quick");
const dbKind = option("db") ?? "sqlite";
const only = option("only")?.split(",");
const jsonOut = option("json");
const missesOut = option("misses");
const speaker = option("speaker") ?? "user";
const wording = option("wording") ?? "tuned";
const person = option("person");
const labels = args.includes("--labels");
const log = (m: string) => console.log(`[bench:recall] ${m}`);

/** The conversation with every message's role swapped (user ↔ assistant), its others too. */
function swapRoles(conv: GeneratedConversation): GeneratedConversation {
  const swap = (messages: GeneratedMessage[]) =>
    messages.map((m) => ({ ...m, role: m.role === "user" ? ("assistant" as const) : ("user" as const) }));
  return { ...conv, messages: swap(conv.messages), others: conv.others.map(swap) };
}

async function main() {
  const defaults = quick ? QUICK_OPTIONS : FULL_OPTIONS;
  const options = {
    ...defaults,
    seed: wholeOption("seed", 0) ?? defaults.seed,
    messages: wholeOption("messages", 1) ?? defaults.messages,
    wording: wording as "tuned" | "fresh",
  };
  if (speaker !== "user" && speaker !== "assistant")
    throw new BenchError("--speaker must be user or assistant");
  if (person !== undefined && person !== "third") throw new BenchError("--person must be third");
  if (wording !== "tuned" && wording !== "fresh") throw new BenchError("--wording must be tuned or fresh");
  if (labels && person !== "third") throw new BenchError("--labels needs --person third");
  let data: GeneratedConversation[];
  try {
    data = generate(options);
  } catch (e) {
    throw new BenchError(`cannot generate the conversations: ${(e as Error).message}`);
  }
  const swapped = speaker === "assistant" ? data.map(swapRoles) : data;
  const asked = speaker === "assistant" ? "assistant" : "user";
  const named = (messages: GeneratedMessage[], lang: GeneratedConversation["lang"]) => {
    const addressed = addressedByName(messages, asked, lang);
    return labels ? labelledByName(addressed, asked, lang) : addressed;
  };
  const generated =
    person === "third"
      ? swapped.map((c) => ({
          ...c,
          messages: named(c.messages, c.lang),
          others: c.others.map((o) => named(o, c.lang)),
        }))
      : swapped;
  const convs = generated.map((c) => ({
    ...c,
    questions: c.questions.map((q) => ({
      ...q,
      text:
        person === "third" ? thirdPerson(q.text) : speaker === "assistant" ? secondPerson(q.text) : q.text,
    })),
  }));
  const messages = convs.reduce((a, c) => a + c.messages.length, 0);
  const questions = convs.reduce((a, c) => a + c.questions.length, 0);
  log(
    `${quick ? "quick" : "full"} run: ${convs.length} conversations (${convs.filter((c) => c.lang === "zh").length} in Chinese), ` +
      `${fmtInt(messages)} messages, ${questions} questions, seed ${options.seed}, on ${dbKind}` +
      (speaker === "assistant" ? ", the facts stated by the assistant (roles swapped)" : "") +
      (person === "third" ? ", questions in the third person" : "") +
      (labels ? ", every message labelled with its speaker's name" : "") +
      (wording === "fresh" ? ", the fresh wording of the questions" : ""),
  );
  assertBuilt(log);

  let url: string;
  let cleanup: () => Promise<void>;
  if (dbKind === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-recall-"));
    url = `file:${path.join(dir, "bench.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else if (dbKind === "postgres") {
    url = withDatabase(
      process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
      `recall_bench_recall_${randomBytes(5).toString("hex")}`,
    );
    cleanup = () => dropDatabase(url);
  } else {
    throw new BenchError("--db must be sqlite or postgres");
  }
  await migrateDatabase(url);
  const server = await startServer(
    serverEnv({
      DATABASE_URL: url,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "100000",
      REGISTRATION: "open",
    }),
  );
  const results: RowResult[] = [];
  try {
    for (const row of ROWS) {
      if (only && !only.includes(row.id)) continue;
      const t = performance.now();
      const result = await runRow(server.url, row, convs);
      results.push(result);
      log(
        result.unavailable
          ? `${row.label}: not available (${result.unavailable})`
          : `${row.label}: ${result.outcomes.length} questions in ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
  } finally {
    await server.stop();
    await cleanup();
  }

  const base = baselineHits(convs, 2000);
  const header = [
    "memory",
    "questions with all evidence",
    "evidence messages",
    "in a summary's range",
    "context tokens",
    "turn median",
  ];
  const lines = results.map((r) => {
    if (r.unavailable) return [r.row.label, "n/a", "n/a", "n/a", "n/a", "n/a"];
    const s = summarize(r.outcomes);
    return [
      r.row.label,
      pct(s.whole, s.questions),
      pct(s.found, s.evidence),
      pct(s.ranged, s.evidence),
      fmtInt(Math.round(s.tokens)),
      `${s.medianMs.toFixed(1)} ms`,
    ];
  });
  lines.push([
    "baseline: any-term BM25 + neighbours, 2 000 tokens (not the app)",
    pct(base.whole, base.questions),
    pct(base.found, base.evidence),
    "—",
    fmtInt(Math.round(base.tokens)),
    "—",
  ]);
  console.log("");
  console.log(table(header, lines));
  // Questions with all their evidence, by language and kind of question.
  const kinds = [...new Set(convs.flatMap((c) => c.questions.map((q) => `${q.lang}/${q.kind}`)))].sort();
  const available = results.filter((r) => !r.unavailable);
  console.log("");
  console.log(
    table(
      ["by language / kind", ...kinds],
      [
        [
          "questions",
          ...kinds.map(
            (k) => convs.flatMap((c) => c.questions).filter((q) => `${q.lang}/${q.kind}` === k).length,
          ),
        ],
        ...available.map((r) => [
          r.row.id,
          ...kinds.map((k) => {
            const os = r.outcomes.filter((o) => `${o.question.lang}/${o.question.kind}` === k);
            return pct(os.filter((o) => o.found === o.question.evidence.length).length, os.length);
          }),
        ]),
      ],
    ),
  );
  if (jsonOut) {
    writeFileSync(
      jsonOut,
      JSON.stringify(
        {
          options,
          db: dbKind,
          rows: results.map((r) => ({ id: r.row.id, unavailable: r.unavailable, ...summarize(r.outcomes) })),
          baseline: base,
        },
        null,
        2,
      ),
    );
  }
  if (missesOut) {
    const misses: Miss[] = available.flatMap((r) => missesOf(r, convs));
    writeFileSync(missesOut, JSON.stringify(misses, null, 2));
    log(`${misses.length} questions without all their evidence written to ${missesOut}`);
  }
  // The run itself must hold: every available row asked every question.
  const broken = results.filter((r) => !r.unavailable && r.outcomes.length !== questions);
  if (broken.length > 0)
    throw new BenchError(`rows with missing questions: ${broken.map((r) => r.row.id).join(", ")}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof BenchError ? `[bench:recall] ${e.message}` : e);
    process.exit(1);
  },
);
