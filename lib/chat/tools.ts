import "server-only";
import { z } from "zod";
import { isStorageError } from "@/lib/db/errors";
import { type FactRow, forgetFacts, listActiveFacts, rememberFact } from "@/lib/db/memories";
import { isTemporarySession } from "@/lib/db/temporary";
import { withTransaction } from "@/lib/db/transaction";
import { isAppError } from "@/lib/errors";
import type { ToolSpec } from "@/lib/llm";
import { matchFacts, normalizeSubject, rankFacts, subjectOf, type ToolCall, terms } from "@/lib/memory";
import { expiryOf } from "@/lib/memory/fact-history";
import { errorText } from "./stream-answer";

// The built-in tools a turn offers the model. Arguments are validated with zod; whatever goes wrong —
// bad arguments, an unknown tool, a tool that throws — becomes the tool's result, so the model sees it and the turn
// goes on.

export interface ToolContext {
  userId: string;
  sessionId: string;
  /** The user message of the turn: the source of anything remembered. */
  questionId: string;
  /** Whether long-term memory is on for this user (else the memory tools refuse). */
  longTermMemory: boolean;
  /** The conversation's project (null: none): the memory tools see its facts and the global ones only. */
  projectId?: string | null;
}

interface Tool<A> {
  spec: ToolSpec;
  args: z.ZodType<A>;
  memory: boolean;
  run(args: A, ctx: ToolContext): Promise<Record<string, unknown>>;
}

const factView = (f: FactRow) => ({
  id: f.id,
  text: f.text,
  ...(f.expiresAt ? { expiresAt: f.expiresAt.toISOString() } : {}),
});

const MAX_FACT_DAYS = 3650;

interface RememberArgs {
  fact: string;
  subject?: string | undefined;
  expiresAt?: string | undefined;
  days?: number | undefined;
}

const remember: Tool<RememberArgs> = {
  spec: {
    name: "remember",
    description:
      'Store a fact about the user in long-term memory, available in all their future conversations. Use it when the user asks you to remember something, or states something that changes a fact already in long-term memory. Write the fact as a short first-person sentence from the user\'s side ("My favourite colour is teal").',
    parameters: {
      type: "object",
      properties: {
        fact: { type: "string", description: "The fact, one short sentence." },
        subject: {
          type: "string",
          description:
            'What the fact is about, a few words ("favourite colour"). A newer fact on the same subject replaces the older one.',
        },
        expiresAt: {
          type: "string",
          description:
            'When the fact stops being true, ISO 8601 ("2026-12-16T00:00:00Z"), if the user bounded it ("until Friday").',
        },
        days: {
          type: "integer",
          description:
            'How many days the fact stays true, if the user bounded it ("for the next two weeks": 14).',
        },
      },
      required: ["fact"],
      additionalProperties: false,
    },
  },
  args: z.object({
    fact: z.string().trim().min(1, "fact must not be empty").max(500, "fact can have at most 500 characters"),
    subject: z.string().trim().max(80).optional(),
    expiresAt: z.iso
      .datetime({ offset: true, message: "expiresAt must be an ISO 8601 date and time" })
      .optional(),
    days: z.number().int().min(1).max(MAX_FACT_DAYS).optional(),
  }),
  memory: true,
  run: async ({ fact, subject, expiresAt, days }, ctx) => {
    const now = new Date();
    const until = expiryOf({ expiresAt: expiresAt ? new Date(expiresAt) : undefined, days, now });
    if (until && until <= now) return { error: "expiresAt is in the past: nothing was remembered." };
    const {
      fact: row,
      superseded,
      duplicate,
    } = await withTransaction((tx) =>
      rememberFact(
        {
          userId: ctx.userId,
          text: fact,
          subject: (subject ? normalizeSubject(subject) : null) ?? subjectOf(fact),
          sourceSessionId: ctx.sessionId,
          sourceMessageId: ctx.questionId,
          expiresAt: until,
        },
        { tx },
      ),
    );
    return {
      remembered: factView(row),
      replaced: superseded.map(factView),
      ...(duplicate ? { already: true } : {}),
    };
  },
};

const forget: Tool<{ memory: string }> = {
  spec: {
    name: "forget",
    description:
      "Delete facts from long-term memory: by memory id (as listed in the Long-term memory section) or by a description of what to forget.",
    parameters: {
      type: "object",
      properties: { memory: { type: "string", description: "A memory id, or what to forget." } },
      required: ["memory"],
      additionalProperties: false,
    },
  },
  args: z.object({ memory: z.string().trim().min(1, "memory must not be empty").max(500) }),
  memory: true,
  run: async ({ memory }, ctx) => {
    const forgotten = await withTransaction(async (tx) => {
      const active = await listActiveFacts({ userId: ctx.userId, projectId: ctx.projectId ?? null }, { tx });
      const byId = active.find((f) => f.id === memory);
      const chosen = byId ? [byId] : matchFacts(active, memory);
      return forgetFacts({ userId: ctx.userId, ids: chosen.map((f) => f.id) }, { tx });
    });
    return { forgotten: forgotten.filter((f) => f.supersededById === null).map(factView) };
  },
};

const SEARCH_RESULTS = 10;

const searchMemories: Tool<{ query: string }> = {
  spec: {
    name: "search_memories",
    description: "Search the user's long-term memory for facts about a topic.",
    parameters: {
      type: "object",
      properties: { query: { type: "string", description: "Words to look for." } },
      required: ["query"],
      additionalProperties: false,
    },
  },
  args: z.object({ query: z.string().trim().min(1, "query must not be empty").max(200) }),
  memory: true,
  run: async ({ query }, ctx) => {
    const active = await listActiveFacts({ userId: ctx.userId, projectId: ctx.projectId ?? null });
    const hits = matchFactsRanked(active, query).slice(0, SEARCH_RESULTS);
    return { memories: hits.map((f) => ({ ...factView(f), sourceSessionId: f.sourceSessionId })) };
  },
};

/** Facts sharing any term with the query, best first. */
function matchFactsRanked(facts: FactRow[], query: string): FactRow[] {
  const wanted = terms(query);
  return rankFacts(
    facts.filter((f) => [...terms(f.text)].some((t) => wanted.has(t))),
    query,
  );
}

const currentTime: Tool<Record<string, never>> = {
  spec: {
    name: "current_time",
    description: "The current date and time (ISO 8601, UTC).",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
  args: z.object({}).strict() as unknown as z.ZodType<Record<string, never>>,
  memory: false,
  run: async () => ({ now: new Date().toISOString(), timeZone: "UTC" }),
};

// biome-ignore lint/suspicious/noExplicitAny: a registry of tools with different argument types
const TOOLS: Tool<any>[] = [remember, forget, searchMemories, currentTime];

/** The tools offered in a turn: the memory tools only when long-term memory is on. */
export function toolsFor({ longTermMemory }: { longTermMemory: boolean }): ToolSpec[] {
  return TOOLS.filter((t) => longTermMemory || !t.memory).map((t) => t.spec);
}

export interface ToolResult {
  toolCallId: string;
  name: string;
  ok: boolean;
  /** What the model is sent: JSON, `{ error }` when the tool did not do its work. */
  text: string;
}

const failed = (call: ToolCall, error: string): ToolResult => ({
  toolCallId: call.id,
  name: call.name,
  ok: false,
  text: JSON.stringify({ error }),
});

/** Runs one call; never throws. */
export async function runTool(call: ToolCall, ctx: ToolContext): Promise<ToolResult> {
  const tool = TOOLS.find((t) => t.spec.name === call.name);
  if (!tool) return failed(call, `There is no tool named ${call.name}.`);
  if (tool.memory && !ctx.longTermMemory) {
    return failed(call, "Long-term memory is switched off for this user.");
  }
  if (tool.spec.name === "remember" && (await isTemporarySession({ sessionId: ctx.sessionId }))) {
    return failed(call, "This is a temporary chat: nothing said in it is remembered.");
  }
  let raw: unknown;
  try {
    raw = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return failed(call, "The arguments are not valid JSON.");
  }
  const parsed = tool.args.safeParse(raw);
  if (!parsed.success) {
    return failed(call, `Invalid arguments: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  }
  try {
    const result = await tool.run(parsed.data, ctx);
    return { toolCallId: call.id, name: call.name, ok: true, text: JSON.stringify(result) };
  } catch (e) {
    console.warn(`[chat] tool ${call.name} failed in session ${ctx.sessionId}: ${errorText(e)}`);
    return failed(call, failureText(call.name, e));
  }
}

/**
 * What the model is told, and the user sees under the answer, when a tool threw: the app's own message, never the
 * database's or the code's (they name tables and statements). Each tool's work is one transaction, so a failure left
 * nothing changed.
 */
function failureText(name: string, e: unknown): string {
  if (isAppError(e)) return `The ${name} tool failed: ${e.message}`;
  if (isStorageError(e))
    return `The ${name} tool failed: the database was busy or unavailable, so nothing was changed. Try again.`;
  return `The ${name} tool failed unexpectedly; nothing was changed.`;
}
