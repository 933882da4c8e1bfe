import {
  EXTRACTION_INSTRUCTIONS,
  EXTRACTION_MAX_CHARS,
  EXTRACTION_MAX_FACTS,
  EXTRACTION_MESSAGE_HEAD,
} from "@/lib/llm/extraction-instructions";
import type { MemoryItem } from "@/lib/memory";

// The extraction request and the reading of its answer, pure. The request holds the user's message of the turn
// only: never the assistant's words, the context or anything recalled into it, so no fact can come from there.

/** How much of the message the model is sent. */
const EXTRACTION_INPUT_CHARS = 4000;

export function extractionRequest(message: string): MemoryItem[] {
  const text = message.trim();
  return [
    { role: "system", text: EXTRACTION_INSTRUCTIONS },
    { role: "user", text: `${EXTRACTION_MESSAGE_HEAD}${text.slice(0, EXTRACTION_INPUT_CHARS)}` },
  ];
}

export class ExtractionParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractionParseError";
  }
}

const normalize = (s: string) => s.replace(/\s+/g, " ").trim();

/** The JSON value a model's answer holds: the whole answer, else inside a code fence, else its first {…}. */
function jsonOf(answer: string): unknown {
  const candidates = [
    answer.trim(),
    /```(?:json)?\s*([\s\S]*?)```/i.exec(answer)?.[1]?.trim(),
    answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1),
  ];
  for (const c of candidates) {
    if (!c) continue;
    try {
      return JSON.parse(c);
    } catch {}
  }
  throw new ExtractionParseError("the answer holds no JSON");
}

/**
 * The facts of an extraction answer `{"facts":[{"text":…}]}` (a bare list, or plain strings in it, are read too),
 * whitespace collapsed, each once, blank and over-long ones dropped, at most EXTRACTION_MAX_FACTS. Throws
 * ExtractionParseError when the answer is not of that shape.
 */
export function parseExtractedFacts(answer: string): string[] {
  const value = jsonOf(answer);
  const list = Array.isArray(value) ? value : (value as { facts?: unknown } | null)?.facts;
  if (!Array.isArray(list)) throw new ExtractionParseError("the answer has no facts list");
  const texts = list.map((f: unknown) =>
    typeof f === "string"
      ? f
      : typeof (f as { text?: unknown })?.text === "string"
        ? (f as { text: string }).text
        : "",
  );
  const facts = texts.map(normalize).filter((t) => t.length > 0 && t.length <= EXTRACTION_MAX_CHARS);
  const seen = new Set<string>();
  return facts
    .filter((t) => {
      const key = factKey(t);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, EXTRACTION_MAX_FACTS);
}

/** What makes two facts the same: case, spacing and end punctuation aside. */
export const factKey = (text: string) =>
  normalize(text)
    .toLowerCase()
    .replace(/[\s.!。！]+$/u, "");
