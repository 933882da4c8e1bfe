import { MemoryFormatError } from "./errors";
import { cloneItem } from "./items";
import type { MemoryItem, MemoryPolicy, MemoryRole, SummaryMeta, ToolCall } from "./types";

const ROLES: ReadonlySet<string> = new Set<MemoryRole>(["system", "user", "assistant", "tool"]);

/** A plain deep copy of the items, safe to `JSON.stringify` and store. */
export function snapshot(items: readonly MemoryItem[]): MemoryItem[] {
  return items.map(cloneItem);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requireString(value: unknown, path: string): string {
  if (typeof value !== "string") throw new MemoryFormatError(path, "expected a string");
  return value;
}

function readToolCall(value: unknown, path: string): ToolCall {
  if (!isRecord(value)) throw new MemoryFormatError(path, "expected a tool call object");
  return {
    id: requireString(value.id, `${path}.id`),
    name: requireString(value.name, `${path}.name`),
    arguments: requireString(value.arguments, `${path}.arguments`),
  };
}

function requireSeq(value: unknown, path: string, min = 0): number {
  if (!Number.isSafeInteger(value) || (value as number) < min) {
    throw new MemoryFormatError(
      path,
      min === 0 ? "expected a non-negative integer" : `expected an integer >= ${min}`,
    );
  }
  return value as number;
}

function readSummaryMeta(value: unknown, path: string): SummaryMeta {
  if (!isRecord(value)) throw new MemoryFormatError(path, "expected an object");
  const meta: SummaryMeta = {
    fromSeq: requireSeq(value.fromSeq, `${path}.fromSeq`),
    throughSeq: requireSeq(value.throughSeq, `${path}.throughSeq`),
    messages: requireSeq(value.messages, `${path}.messages`),
    version: requireSeq(value.version, `${path}.version`, 1),
    model: requireString(value.model, `${path}.model`),
    createdAt: requireString(value.createdAt, `${path}.createdAt`),
  };
  if (meta.throughSeq < meta.fromSeq) {
    throw new MemoryFormatError(`${path}.throughSeq`, "expected throughSeq >= fromSeq");
  }
  if (Number.isNaN(Date.parse(meta.createdAt))) {
    throw new MemoryFormatError(`${path}.createdAt`, "expected an ISO 8601 time");
  }
  return meta;
}

function readItem(value: unknown, path: string): MemoryItem {
  if (!isRecord(value)) throw new MemoryFormatError(path, "expected an object");
  const role = value.role;
  if (typeof role !== "string" || !ROLES.has(role)) {
    throw new MemoryFormatError(`${path}.role`, "expected one of system, user, assistant, tool");
  }
  const item: MemoryItem = { role: role as MemoryRole, text: requireString(value.text, `${path}.text`) };

  if (value.imageUrls !== undefined) {
    if (!Array.isArray(value.imageUrls))
      throw new MemoryFormatError(`${path}.imageUrls`, "expected an array");
    item.imageUrls = value.imageUrls.map((url, i) => requireString(url, `${path}.imageUrls[${i}]`));
  }
  if (value.toolCalls !== undefined) {
    if (!Array.isArray(value.toolCalls))
      throw new MemoryFormatError(`${path}.toolCalls`, "expected an array");
    if (role !== "assistant")
      throw new MemoryFormatError(`${path}.toolCalls`, "only assistant items make calls");
    item.toolCalls = value.toolCalls.map((call, i) => readToolCall(call, `${path}.toolCalls[${i}]`));
  }
  if (value.toolCallId !== undefined) {
    if (role !== "tool") throw new MemoryFormatError(`${path}.toolCallId`, "only tool items answer a call");
    item.toolCallId = requireString(value.toolCallId, `${path}.toolCallId`);
  }
  if (role === "tool" && !item.toolCallId) {
    throw new MemoryFormatError(`${path}.toolCallId`, "a tool item needs the id of the call it answers");
  }
  if (value.summary !== undefined) {
    if (typeof value.summary !== "boolean")
      throw new MemoryFormatError(`${path}.summary`, "expected a boolean");
    item.summary = value.summary;
  }
  if (value.summaryMeta !== undefined) {
    if (item.summary !== true) {
      throw new MemoryFormatError(`${path}.summaryMeta`, "only summary items carry summary provenance");
    }
    item.summaryMeta = readSummaryMeta(value.summaryMeta, `${path}.summaryMeta`);
  }
  if (value.seq !== undefined) item.seq = requireSeq(value.seq, `${path}.seq`);
  return item;
}

/**
 * Validates a stored snapshot and returns fresh items. Unknown keys are dropped (so a newer writer's extra
 * fields do not break an older reader); `null` is not accepted for an absent optional field.
 */
export function restore(value: unknown): MemoryItem[] {
  if (!Array.isArray(value)) throw new MemoryFormatError("items", "expected an array of memory items");
  return value.map((item, i) => readItem(item, `items[${i}]`));
}

/** The replace-on-write step after a turn: the policy applied to the previous items plus the new ones. */
export function fold({
  items,
  policy,
  add,
}: {
  items: readonly MemoryItem[];
  policy: MemoryPolicy;
  add: readonly MemoryItem[];
}): MemoryItem[] {
  return policy.apply([...items, ...add]);
}
