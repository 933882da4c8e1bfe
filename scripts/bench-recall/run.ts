import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BenchError, Client } from "../bench/http";
import { fmtInt, table } from "../bench/report";
import { assertBuilt, serverEnv, startServer } from "../bench/server";
import { withDatabase } from "../lib/database-url";
import { dropDatabase, migrateDatabase } from "../lib/migrate";
import { baselineHits } from "./baseline";
import {
  FULL_OPTIONS,
  type GeneratedConversation,
  type GeneratedMessage,
  type GeneratedQuestion,
  generate,
  QUICK_OPTIONS,
} from "./generate";

// npm run bench:recall [-- --quick] [--db sqlite|postgres] [--only window,tokens,...] [--json file]
//
// How much of what answers a question reaches the model's context. Generated conversations (./generate.ts) are
// imported through POST /api/import, each question is asked through the real turn API as a new branch after the
// conversation's last message, and the context recorded for that turn is read back from
// GET /api/sessions/:id/turns/:messageId/context. A question counts when every one of its evidence messages is in
// that context verbatim; a summary that merely covers an evidence message's range is reported separately.
// "baseline" is not the app: a plain any-term BM25 over the conversation with neighbours, filled to 2 000 tokens,
// computed here, so the difficulty of this data can be compared with other benchmarks.

interface Row {
  id: string;
  label: string;
  /** The conversation's memory settings in the import file (null: the deployment's defaults). */
  settings: Record<string, unknown> | null;
  /** Ask in a new conversation of the same user instead of after the conversation's last message. */
  newConversation?: boolean;
  /** Memory settings for that new conversation. */
  newSettings?: Record<string, unknown>;
}

const ROWS: Row[] = [
  { id: "window", label: "window (default, last 20)", settings: null },
  { id: "tokens", label: "tokens, 8 000", settings: { policy: "tokens", maxTokens: 8000 } },
  { id: "summary", label: "summary", settings: { policy: "summary" } },
  { id: "recall", label: "recall: conversation", settings: { recall: "conversation" } },
  { id: "window-new", label: "window, new conversation", settings: null, newConversation: true },
  {
    id: "recall-all",
    label: "recall: all, new conversation",
    settings: null,
    newConversation: true,
    newSettings: { recall: "all" },
  },
];

interface Outcome {
  question: GeneratedQuestion;
  found: number;
  inSummaryRange: number;
  tokens: number;
  ms: number;
}

interface RowResult {
  row: Row;
  outcomes: Outcome[];
  /** Why the row could not run on this build (e.g. a setting it does not know). */
  unavailable?: string;
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes("--quick");
const dbKind = option("db") ?? "sqlite";
const only = option("only")?.split(",");
const jsonOut = option("json");
const log = (m: string) => console.log(`[bench:recall] ${m}`);

function exportFile(
  conv: GeneratedConversation,
  settings: Record<string, unknown> | null,
  withOthers: boolean,
) {
  const one = (
    title: string,
    messages: GeneratedMessage[],
    memorySettings: Record<string, unknown> | null,
  ) => {
    const last = messages.at(-1) as GeneratedMessage;
    return {
      localId: `c${randomBytes(4).toString("hex")}`,
      title,
      titleByUser: true,
      createdAt: messages[0]?.createdAt,
      updatedAt: last.createdAt,
      memorySettings,
      memoryStartSeq: 0,
      branches: "path",
      activeLeafLocalId: last.localId,
      messages: messages.map((m, i) => ({
        localId: m.localId,
        parentLocalId: i === 0 ? null : (messages[i - 1] as GeneratedMessage).localId,
        seq: m.seq,
        role: m.role,
        text: m.text,
        parts: null,
        toolCallId: null,
        status: "complete",
        model: m.role === "assistant" ? "imported" : null,
        promptTokens: null,
        completionTokens: null,
        createdAt: m.createdAt,
      })),
      attachments: [],
    };
  };
  const others = withOthers ? conv.others.map((o, k) => one(`${conv.title} · ${k + 2}`, o, settings)) : [];
  const conversations = [one(conv.title, conv.messages, settings), ...others];
  return {
    format: "recall-export",
    version: 1,
    exportedAt: new Date().toISOString(),
    attachments: "reference",
    conversations,
  };
}

interface ContextEntry {
  source: string;
  seq?: number;
  sessionId?: string;
  tokens: number;
  summary?: { fromSeq?: number; throughSeq?: number };
}

/** Reads the `meta` event of a turn's SSE body: the answer's id. */
function answerIdOf(body: string): string {
  for (const block of body.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trim())
      .join("\n");
    if (!data) continue;
    const event = JSON.parse(data) as { type?: string; assistantMessage?: { id: string } };
    if (event.type === "meta" && event.assistantMessage) return event.assistantMessage.id;
  }
  throw new BenchError(`turn answered without a meta event: ${body.slice(0, 300)}`);
}

async function ask(
  client: Client,
  sessionId: string,
  sourceSessionId: string,
  question: GeneratedQuestion,
  parentId: string | undefined,
): Promise<Outcome> {
  const started = performance.now();
  const res = await client.request("POST", `/api/sessions/${sessionId}/messages`, {
    json: parentId === undefined ? { content: question.text } : { content: question.text, parentId },
  });
  const ms = performance.now() - started;
  if (res.status !== 200) throw new BenchError(`turn: HTTP ${res.status} ${res.body.slice(0, 300)}`);
  const answerId = answerIdOf(res.body);
  const { data } = await client.json<{ context: { entries: ContextEntry[]; tokenEstimate: number } }>(
    "GET",
    `/api/sessions/${sessionId}/turns/${answerId}/context`,
  );
  const seqs = question.evidence.map((id) => Number(id.slice(1)));
  const sameConversation = sessionId === sourceSessionId;
  const present = (seq: number) =>
    data.context.entries.some(
      (e) =>
        e.source !== "current" &&
        e.seq === seq &&
        (e.sessionId !== undefined ? e.sessionId === sourceSessionId : sameConversation),
    );
  const covered = (seq: number) =>
    sameConversation &&
    data.context.entries.some(
      (e) =>
        e.source === "summary" && (e.summary?.fromSeq ?? 1) <= seq && seq <= (e.summary?.throughSeq ?? 0),
    );
  return {
    question,
    found: seqs.filter(present).length,
    inSummaryRange: seqs.filter((s) => !present(s) && covered(s)).length,
    tokens: data.context.tokenEstimate,
    ms,
  };
}

async function runRow(baseUrl: string, row: Row, convs: GeneratedConversation[]): Promise<RowResult> {
  const outcomes: Outcome[] = [];
  for (const [i, conv] of convs.entries()) {
    const client = new Client(baseUrl, `${row.id}-${i}`);
    const email = `recall-${row.id}-${i}-${randomBytes(3).toString("hex")}@bench.test`;
    const password = randomBytes(12).toString("base64url");
    await client.json("POST", "/api/register", { email, password, name: `Bench ${i}` }, 201);
    await client.signIn(email, password);
    const imported = await client.request("POST", "/api/import", {
      json: exportFile(conv, row.settings, row.newConversation === true),
    });
    if (imported.status === 422 && row.settings !== null) {
      return {
        row,
        outcomes,
        unavailable: `this build refuses the settings ${JSON.stringify(row.settings)}`,
      };
    }
    if (imported.status !== 201)
      throw new BenchError(`import: HTTP ${imported.status} ${imported.body.slice(0, 300)}`);
    const sourceId = (JSON.parse(imported.body) as { imported: { conversations: { id: string }[] } }).imported
      .conversations[0]?.id as string;
    let parentId: string | undefined;
    if (!row.newConversation) {
      const { data } = await client.json<{ messages: { id: string; role: string }[] }>(
        "GET",
        `/api/sessions/${sourceId}`,
      );
      parentId = data.messages.at(-1)?.id;
    }
    for (const q of conv.questions) {
      // In a new conversation each question is its first message; after the history, a branch of its own.
      let session = sourceId;
      if (row.newConversation) {
        session = (await client.json<{ session: { id: string } }>("POST", "/api/sessions", {}, 201)).data
          .session.id;
        if (row.newSettings) {
          const res = await client.request("PATCH", `/api/sessions/${session}/memory`, {
            json: row.newSettings,
          });
          if (res.status === 422) {
            return { row, outcomes, unavailable: `this build refuses ${JSON.stringify(row.newSettings)}` };
          }
          if (res.status !== 200)
            throw new BenchError(`memory settings: HTTP ${res.status} ${res.body.slice(0, 200)}`);
        }
      }
      outcomes.push(await ask(client, session, sourceId, q, parentId));
    }
  }
  return { row, outcomes };
}

function pct(n: number, d: number) {
  return d === 0 ? "—" : `${((100 * n) / d).toFixed(1)} %`;
}

function summarize(outcomes: Outcome[]) {
  const evidence = outcomes.reduce((a, o) => a + o.question.evidence.length, 0);
  const found = outcomes.reduce((a, o) => a + o.found, 0);
  const ranged = outcomes.reduce((a, o) => a + o.inSummaryRange, 0);
  const whole = outcomes.filter((o) => o.found === o.question.evidence.length).length;
  const tokens = outcomes.reduce((a, o) => a + o.tokens, 0) / Math.max(1, outcomes.length);
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    questions: outcomes.length,
    whole,
    evidence,
    found,
    ranged,
    tokens,
    medianMs: ms[Math.floor(ms.length / 2)] ?? 0,
  };
}

async function main() {
  const options = quick ? QUICK_OPTIONS : FULL_OPTIONS;
  const convs = generate(options);
  const messages = convs.reduce((a, c) => a + c.messages.length, 0);
  const questions = convs.reduce((a, c) => a + c.questions.length, 0);
  log(
    `${quick ? "quick" : "full"} run: ${convs.length} conversations (${convs.filter((c) => c.lang === "zh").length} in Chinese), ` +
      `${fmtInt(messages)} messages, ${questions} questions, seed ${options.seed}, on ${dbKind}`,
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
