import type { ChatMessageView, ToolStepView } from "./types";

// Tool steps are stored as history rows of their own — the assistant's call and each tool's result — but
// read as part of the answer they led to. The list keeps the rows as the server sent them (so paging and merging
// stay seq-based) and folds them into that answer when it renders.

interface StepRow {
  role: ChatMessageView["role"];
  parts?: unknown;
  toolCallId?: string | null;
  text: string;
}

/** The tool calls a stored assistant message made ([] for a plain answer). */
function callsOf(message: StepRow): { id: string; name: string; arguments: string }[] {
  if (message.role !== "assistant") return [];
  const parts = message.parts as { toolCalls?: unknown } | null | undefined;
  return Array.isArray(parts?.toolCalls)
    ? (parts.toolCalls as { id: string; name: string; arguments: string }[])
    : [];
}

/** Whether a tool's result reports a failure (`{ "error": … }`). */
function resultFailed(result: string): boolean {
  try {
    const value: unknown = JSON.parse(result);
    return typeof value === "object" && value !== null && "error" in value;
  } catch {
    return false;
  }
}

function merge(stored: ToolStepView[], live: ToolStepView[] | undefined): ToolStepView[] {
  if (!live?.length) return stored;
  const seen = new Set(stored.map((s) => s.id));
  return [...stored, ...live.filter((s) => !seen.has(s.id))];
}

/**
 * The messages to show: call and result rows folded into the `steps` of the answer that follows them. A folded
 * answer takes the versions (`siblings`) of its group's first row — the question's child — since that row is what
 * another version of the answer replaces.
 */
export function foldToolSteps(messages: readonly ChatMessageView[]): ChatMessageView[] {
  const out: ChatMessageView[] = [];
  let pending: ToolStepView[] = [];
  let groupFirst: ChatMessageView | null = null;
  for (const m of messages) {
    if (m.role === "user") groupFirst = null;
    const calls = callsOf(m);
    if (calls.length > 0) {
      groupFirst ??= m;
      pending.push(...calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })));
      continue;
    }
    if (m.role === "tool") {
      const step = pending.find((s) => s.id === m.toolCallId);
      if (step) {
        step.result = m.text;
        step.ok = !resultFailed(m.text);
      }
      continue;
    }
    if (m.role === "assistant" && (pending.length > 0 || m.steps?.length)) {
      const siblings = groupFirst ? groupFirst.siblings : m.siblings;
      out.push({ ...m, steps: merge(pending, m.steps), ...(siblings ? { siblings } : {}) });
      pending = [];
      groupFirst = null;
      continue;
    }
    out.push(m);
  }
  return out;
}
