import type { ExportConversation, ExportMessage } from "./format";

// A conversation's active path as Markdown for people (pure): the title, who said what and when, tool steps in one
// line each under the answer they led to, attachments by name (linked when the server's address is known).

export interface MarkdownLabels {
  you: string;
  assistant: string;
  system: string;
  /** "Exported from Recall on {date} · {count} messages" */
  exported: (values: { date: string; count: number }) => string;
  attachments: string;
  tool: string;
  noResult: string;
  interrupted: string;
  failed: string;
}

const ENGLISH_LABELS: MarkdownLabels = {
  you: "You",
  assistant: "Assistant",
  system: "System",
  exported: ({ date, count }) => `Exported from Recall on ${date} · ${count} messages on this branch`,
  attachments: "Attachments",
  tool: "Tool",
  noResult: "no result",
  interrupted: "(the answer was interrupted here)",
  failed: "(the answer failed)",
};

/** `2026-05-01 12:00 UTC` — the same in every locale and time zone, so files compare. */
export function markdownDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const ONE_LINE_CHARS = 160;

/** Text on one line, shortened with an ellipsis. */
export function oneLine(text: string, max = ONE_LINE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("")}…`;
}

/** An inline code span that survives backticks inside it. */
export function inlineCode(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") || text === "" ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** Square brackets would end a link's text early. */
const linkText = (name: string) => name.replace(/([[\]\\])/g, "\\$1");

interface Step {
  callId: string | null;
  name: string;
  args: string;
  result: string | null;
}

/**
 * Markdown of a conversation exported with its active path (`branches: "path"`; a tree is walked to the active
 * leaf first by the caller). `attachmentUrl` links an attachment by its source id; without it, names only.
 */
export function conversationToMarkdown(
  conversation: ExportConversation,
  {
    labels = ENGLISH_LABELS,
    exportedAt,
    attachmentUrl,
  }: { labels?: MarkdownLabels; exportedAt: string; attachmentUrl?: (sourceId: string) => string },
): string {
  const out: string[] = [`# ${oneLine(conversation.title, 200)}`, ""];
  out.push(
    `_${labels.exported({ date: markdownDate(exportedAt), count: conversation.messages.length })}_`,
    "",
  );
  const attachments = new Map(conversation.attachments.map((a) => [a.localId, a]));
  let steps: Step[] = [];

  const heading = (who: string, m: ExportMessage) => {
    const parts = [who, ...(m.role === "assistant" && m.model ? [m.model] : []), markdownDate(m.createdAt)];
    out.push("---", "", `### ${parts.join(" · ")}`, "");
  };
  const flushSteps = () => {
    for (const step of steps) {
      const result = step.result === null ? labels.noResult : oneLine(step.result);
      out.push(`- ${labels.tool} ${inlineCode(step.name)} ${inlineCode(oneLine(step.args, 80))} → ${result}`);
    }
    if (steps.length > 0) out.push("");
    steps = [];
  };
  const status = (m: ExportMessage) => {
    if (m.status === "interrupted" || m.status === "streaming") out.push(`_${labels.interrupted}_`, "");
    if (m.status === "failed") out.push(`_${labels.failed}_`, "");
  };

  for (const m of conversation.messages) {
    if (m.role === "tool") {
      const step = steps.find((s) => s.callId !== null && s.callId === m.toolCallId);
      if (step) step.result = m.text;
      continue;
    }
    if (m.role === "assistant" && (m.parts?.toolCalls?.length ?? 0) > 0) {
      for (const call of m.parts?.toolCalls ?? []) {
        steps.push({ callId: call.id, name: call.name, args: call.arguments, result: null });
      }
      continue;
    }
    if (m.role !== "assistant" && steps.length > 0) {
      out.push("---", "", `### ${labels.assistant}`, "");
      flushSteps();
    }
    heading(m.role === "user" ? labels.you : m.role === "assistant" ? labels.assistant : labels.system, m);
    if (m.role === "assistant") flushSteps();
    if (m.text.trim()) out.push(m.text.trim(), "");
    const files = (m.parts?.attachments ?? []).map((p) => {
      const source = attachments.get(p.id)?.sourceId;
      const name = source && attachmentUrl ? `[${linkText(p.name)}](${attachmentUrl(source)})` : p.name;
      return `${name} (${p.mime}, ${size(p.bytes)})`;
    });
    if (files.length > 0) out.push(`${labels.attachments}: ${files.join(" · ")}`, "");
    status(m);
  }
  if (steps.length > 0) {
    out.push("---", "", `### ${labels.assistant}`, "");
    flushSteps();
  }
  return `${out.join("\n").trimEnd()}\n`;
}
