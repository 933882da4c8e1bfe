import { randomBytes } from "node:crypto";
import { BenchError, Client } from "../bench/http";
import type { GeneratedConversation, GeneratedMessage, GeneratedQuestion } from "./generate";

// The rows of the recall benchmark (npm run bench:recall, and W8 of npm run bench): each memory setting, asked
// through the real turn API of a running server. See run.ts for how a question is asked and counted.

export interface Row {
  id: string;
  label: string;
  /** The conversation's memory settings in the import file (null: the deployment's defaults). */
  settings: Record<string, unknown> | null;
  /** Ask in a new conversation of the same user instead of after the conversation's last message. */
  newConversation?: boolean;
  /** Memory settings for that new conversation. */
  newSettings?: Record<string, unknown>;
}

// Recall is on by default (MEMORY_RECALL=conversation): the policy rows switch it off, so each row measures one thing.
export const ROWS: Row[] = [
  { id: "window", label: "window (default, last 20), recall off", settings: { recall: "off" } },
  {
    id: "tokens",
    // The tokens policy is a window bounded by tokens as well as by maxMessages: lifting the message cap makes the
    // 8 000 tokens the only limit, as the issue's measurement had it.
    label: "tokens, 8 000, recall off",
    settings: { policy: "tokens", maxTokens: 8000, maxMessages: 10_000, recall: "off" },
  },
  { id: "summary", label: "summary, recall off", settings: { policy: "summary", recall: "off" } },
  { id: "recall", label: "recall: conversation (window + 2 000)", settings: { recall: "conversation" } },
  {
    id: "window-new",
    label: "window, new conversation, recall off",
    settings: { recall: "off" },
    newConversation: true,
    newSettings: { recall: "off" },
  },
  {
    id: "recall-all",
    label: "recall: all, new conversation",
    settings: { recall: "off" },
    newConversation: true,
    newSettings: { recall: "all" },
  },
];

export interface Outcome {
  question: GeneratedQuestion;
  found: number;
  inSummaryRange: number;
  tokens: number;
  ms: number;
  /** What the context's recalled section held (for --misses): seqs of the conversation asked about, or another's. */
  recalled: ({ seq: number } | { other: string })[];
}

export interface RowResult {
  row: Row;
  outcomes: Outcome[];
  /** Why the row could not run on this build (e.g. a setting it does not know). */
  unavailable?: string;
}

/** The export file a user imports, and where the conversation with the facts is among its conversations. */
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
  // The conversation with the facts sits amid the user's others: one of them imported (and indexed) before it, the
  // rest after. Imported first, its messages would be the user's earliest matches of every word, which the bounded
  // lookups of scope `all` read first (docs/decisions/026-recall.md).
  const before = others.slice(0, 1);
  const conversations = [...before, one(conv.title, conv.messages, settings), ...others.slice(1)];
  return {
    factsAt: before.length,
    file: {
      format: "recall-export",
      version: 1,
      exportedAt: new Date().toISOString(),
      attachments: "reference",
      conversations,
    },
  };
}

interface ContextEntry {
  source: string;
  seq?: number;
  sessionId?: string;
  preview?: string;
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
    recalled: data.context.entries.flatMap((e): Outcome["recalled"] =>
      e.source !== "recalled" || e.seq === undefined
        ? []
        : e.sessionId === undefined || e.sessionId === sourceSessionId
          ? [{ seq: e.seq }]
          : [{ other: `#${e.seq} ${e.preview ?? ""}` }],
    ),
  };
}

/** A question whose evidence did not all reach the context, with the texts involved (--misses). */
export interface Miss {
  row: string;
  question: GeneratedQuestion;
  evidence: string[];
  recalled: string[];
}

export function missesOf(result: RowResult, convs: GeneratedConversation[]): Miss[] {
  const bySeq = new Map(
    convs.flatMap((c) => c.messages.map((m) => [`${c.title}#${m.seq}`, m.text] as const)),
  );
  const titleOf = new Map(convs.flatMap((c) => c.questions.map((q) => [q.id, c.title] as const)));
  return result.outcomes
    .filter((o) => o.found < o.question.evidence.length)
    .map((o) => {
      const title = titleOf.get(o.question.id) ?? "";
      const text = (seq: number) => `#${seq} ${bySeq.get(`${title}#${seq}`) ?? "?"}`;
      return {
        row: result.row.id,
        question: o.question,
        evidence: o.question.evidence.map((id) => text(Number(id.slice(1)))),
        recalled: o.recalled.map((r) => ("seq" in r ? text(r.seq) : `(another conversation) ${r.other}`)),
      };
    });
}

export async function runRow(baseUrl: string, row: Row, convs: GeneratedConversation[]): Promise<RowResult> {
  const outcomes: Outcome[] = [];
  for (const [i, conv] of convs.entries()) {
    const client = new Client(baseUrl, `${row.id}-${i}`);
    const email = `recall-${row.id}-${i}-${randomBytes(3).toString("hex")}@bench.test`;
    const password = randomBytes(12).toString("base64url");
    await client.json("POST", "/api/register", { email, password, name: `Bench ${i}` }, 201);
    await client.signIn(email, password);
    const { file, factsAt } = exportFile(conv, row.settings, row.newConversation === true);
    const imported = await client.request("POST", "/api/import", { json: file });
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
      .conversations[factsAt]?.id as string;
    let parentId: string | undefined;
    if (!row.newConversation) {
      const { data } = await client.json<{ messages: { id: string; role: string }[] }>(
        "GET",
        `/api/sessions/${sourceId}`,
      );
      // A question follows an answer: the last one (with roles swapped, the conversation ends on a user message).
      parentId = data.messages.findLast((m) => m.role === "assistant")?.id;
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

export function pct(n: number, d: number) {
  return d === 0 ? "—" : `${((100 * n) / d).toFixed(1)} %`;
}

export function summarize(outcomes: Outcome[]) {
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
