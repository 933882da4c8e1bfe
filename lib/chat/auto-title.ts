import "server-only";
import { setAutoTitle } from "@/lib/db/titles";
import { getModel, type Model, streamReply } from "@/lib/llm";
import {
  TITLE_ANSWER_HEAD,
  TITLE_INSTRUCTIONS,
  TITLE_MAX_CHARS,
  TITLE_MAX_WORDS,
  TITLE_QUESTION_HEAD,
} from "@/lib/llm/title-instructions";
import type { MemoryItem } from "@/lib/memory";
import { errorText } from "./stream-answer";

// Automatic titles: after a conversation's first complete answer the model names it in a few words, off
// the turn's path — the answer is already delivered and nothing waits for the title. The title is written only while
// the user has not renamed the conversation (lib/db/titles.ts); a failure is logged and the first message's title
// simply stays.

/** How much of the question and of the answer the model is sent: a title needs the start, not all of it. */
const TITLE_INPUT_CHARS = 2000;

const clip = (text: string) =>
  text.length > TITLE_INPUT_CHARS ? `${text.slice(0, TITLE_INPUT_CHARS)}…` : text;

/** The request a title is made from: the instructions, then the question and the answer. */
export function titleRequest({ question, answer }: { question: string; answer: string }): MemoryItem[] {
  return [
    { role: "system", text: TITLE_INSTRUCTIONS },
    {
      role: "user",
      text: `${TITLE_QUESTION_HEAD}${clip(question.trim())}\n\n${TITLE_ANSWER_HEAD}${clip(answer.trim())}`,
    },
  ];
}

/**
 * What a model wrote, made a title: its first non-empty line without a "Title:" label, markdown or surrounding
 * quotes and final full stop; at most TITLE_MAX_WORDS words and TITLE_MAX_CHARS characters. Null when nothing is
 * left.
 */
export function cleanTitle(text: string): string | null {
  const line = text
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  let title = line
    .replace(/^(?:#+\s*|\*\*|__)/, "")
    .replace(/(?:\*\*|__)$/, "")
    .replace(/^title\s*[:：]\s*/i, "")
    .replace(/^["'“”‘’「『《`*_]+/, "")
    .replace(/["'“”‘’」』》`*_.。!！;；:：,，]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  const words = title.split(" ");
  if (words.length > TITLE_MAX_WORDS) title = words.slice(0, TITLE_MAX_WORDS).join(" ");
  if (title.length > TITLE_MAX_CHARS) title = `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
  return title || null;
}

/** Asks the model for a title; resolves to it cleaned, or null when the model wrote nothing usable. */
export async function titleWithModel(
  input: { question: string; answer: string },
  model: Model = getModel(),
  signal?: AbortSignal,
): Promise<string | null> {
  let text = "";
  for await (const event of streamReply({ items: titleRequest(input), model, signal })) {
    if (event.type === "done") text = event.text;
  }
  return cleanTitle(text);
}

/** Makes and writes the title; resolves whether it was written. */
export async function autoTitle(
  { sessionId, question, answer }: { sessionId: string; question: string; answer: string },
  model: Model = getModel(),
): Promise<boolean> {
  if (!question.trim() && !answer.trim()) return false;
  const title = await titleWithModel({ question, answer }, model);
  if (!title) return false;
  return setAutoTitle({ sessionId, title });
}

const running = new Set<Promise<void>>();

/**
 * Names the conversation from its first question and answer, in the background: returns at once; a failure is
 * logged, never thrown. Called once the first answer of a conversation is complete.
 */
export function scheduleAutoTitle({
  sessionId,
  question,
  answer,
}: {
  sessionId: string;
  question: string;
  answer: string;
}): void {
  const job = autoTitle({ sessionId, question, answer })
    .then(() => undefined)
    .catch((e: unknown) => console.error(`[title] naming session ${sessionId} failed: ${errorText(e)}`))
    .finally(() => running.delete(job));
  running.add(job);
}

/** Resolves once every title this process started has been written or given up (tests, graceful shutdown). */
export async function titlesSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}
