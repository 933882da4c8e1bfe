// What an answer used beyond the window of recent messages, read from its turn's recorded context: the earlier
// messages recalled, the project file passages recalled, the long-term memories, and the summary. Small enough to send with every answer (the `done`
// event, each answer of a page), so the line under an answer needs no request of its own. Pure: it reads the
// stored JSON defensively, since records written before a field existed lack it.

/** An earlier message the turn recalled (possibly from another conversation of the user). */
export interface RecalledUse {
  sessionId: string;
  messageId: string;
  seq: number;
  role: "user" | "assistant";
  /** ISO 8601. */
  createdAt: string;
  score: number;
  preview: string;
}

/** A passage of a project file the turn recalled: which file, and where in it (`position` of `chunkCount`). */
export interface FileUse {
  fileId: string;
  fileName: string;
  chunkId: number;
  position: number;
  chunkCount: number;
  preview: string;
}

/** A long-term memory the turn was sent, and the message it was learned from. */
export interface FactUse {
  id: string;
  sessionId: string;
  messageId: string;
}

export interface MemoryUsed {
  recalled: RecalledUse[];
  files: FileUse[];
  facts: FactUse[];
  /** The history range the summaries sent stand for (over all of them). */
  summary: { fromSeq: number; throughSeq: number; messages: number } | null;
}

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === "object" && value !== null;
const isText = (value: unknown): value is string => typeof value === "string" && value !== "";
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

function recalledOf(entry: Row): RecalledUse | null {
  const { sessionId, messageId, seq, role, createdAt, score, preview } = entry;
  if (!isText(sessionId) || !isText(messageId) || !isNumber(seq) || !isText(createdAt)) return null;
  if (role !== "user" && role !== "assistant") return null;
  return {
    sessionId,
    messageId,
    seq,
    role,
    createdAt,
    score: isNumber(score) ? score : 0,
    preview: typeof preview === "string" ? preview : "",
  };
}

function fileOf(entry: Row): FileUse | null {
  const { fileId, fileName, chunkId, position, chunkCount, preview } = entry;
  if (!isText(fileId) || !isText(fileName) || !isNumber(chunkId) || !isNumber(position)) return null;
  return {
    fileId,
    fileName,
    chunkId,
    position,
    chunkCount: isNumber(chunkCount) ? chunkCount : position,
    preview: typeof preview === "string" ? preview : "",
  };
}

function factsOf(entry: Row): FactUse[] {
  if (!Array.isArray(entry.facts)) return [];
  return entry.facts.flatMap((fact: unknown) =>
    isRow(fact) && isText(fact.id) && isText(fact.sourceSessionId) && isText(fact.sourceMessageId)
      ? [{ id: fact.id, sessionId: fact.sourceSessionId, messageId: fact.sourceMessageId }]
      : [],
  );
}

/**
 * The memory an answer used beyond its window, from its turn's context entries; null when it used only the window
 * (or the record is not a list). Recalled messages and file passages keep the order they were sent in, each once;
 * several summaries are reported as the one range they cover together.
 */
export function memoryUsedOf(entries: unknown): MemoryUsed | null {
  if (!Array.isArray(entries)) return null;
  const recalled: RecalledUse[] = [];
  const seen = new Set<string>();
  const files: FileUse[] = [];
  const seenChunks = new Set<number>();
  const facts: FactUse[] = [];
  let summary: MemoryUsed["summary"] = null;
  for (const entry of entries) {
    if (!isRow(entry)) continue;
    if (entry.source === "recalled") {
      const use = recalledOf(entry);
      if (use && !seen.has(use.messageId)) {
        seen.add(use.messageId);
        recalled.push(use);
      }
    } else if (entry.source === "file") {
      const use = fileOf(entry);
      if (use && !seenChunks.has(use.chunkId)) {
        seenChunks.add(use.chunkId);
        files.push(use);
      }
    } else if (entry.source === "fact") {
      facts.push(...factsOf(entry));
    } else if (entry.source === "summary" && isRow(entry.summary)) {
      const { fromSeq, throughSeq, messages } = entry.summary;
      if (!isNumber(fromSeq) || !isNumber(throughSeq) || !isNumber(messages)) continue;
      summary = summary
        ? {
            fromSeq: Math.min(summary.fromSeq, fromSeq),
            throughSeq: Math.max(summary.throughSeq, throughSeq),
            messages: summary.messages + messages,
          }
        : { fromSeq, throughSeq, messages };
    }
  }
  if (recalled.length === 0 && files.length === 0 && facts.length === 0 && summary === null) return null;
  return { recalled, files, facts, summary };
}

/**
 * The memory used by each answer of a page, keyed by the answer's id, from the contexts recorded for them (one
 * read for the page). Answers without a record, or that used only the window, map to null.
 */
export function memoryUsedByAnswer(
  answerIds: readonly string[],
  contexts: readonly { messageId: string; entries: unknown }[],
): Map<string, MemoryUsed | null> {
  const byId = new Map(contexts.map((c) => [c.messageId, c.entries]));
  return new Map(answerIds.map((id) => [id, memoryUsedOf(byId.get(id))]));
}
