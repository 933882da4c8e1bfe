import type { MemoryStateView } from "@/lib/client/types";
import type { MemoryUsed } from "@/lib/context/memory-used";
import type { Translator } from "@/lib/i18n/translate";
import { formatCount } from "./format";

// What a conversation's memory is, in plain words: the header's memory control and the context inspector say it
// the same way. Pure (the caller hands in its translator), so the wording is unit-tested (memory-words.test.ts).

type T = Translator<"chatMemory">;

const messages = (t: T, n: number) => t("messages", { n, count: formatCount(n) });
const lastMessages = (t: T, n: number) => t("lastMessages", { n, count: formatCount(n) });

/** "window:20" → "Window of the last 20 messages"; an id it does not know is returned as it is. */
export function describePolicy(t: T, policyId: string): string {
  const parts = policyId.split("+");
  const window = parts.map((p) => /^window:(\d+)$/.exec(p)).find(Boolean);
  const tokens = parts.map((p) => /^tokens:(\d+)$/.exec(p)).find(Boolean);
  const summary = /^summary:(\d+)\/(\d+)$/.exec(policyId);
  if (policyId === "none") return t("policy.off");
  if (policyId === "unbounded") return t("policy.unbounded");
  if (summary) return t("policy.summary", { last: lastMessages(t, Number(summary[1])) });
  const known = (window ? 1 : 0) + (tokens ? 1 : 0);
  if (known !== parts.length) return policyId;
  if (tokens && window)
    return t("policy.tokensWindow", {
      tokens: formatCount(Number(tokens[1])),
      last: lastMessages(t, Number(window[1])),
    });
  if (tokens) return t("policy.tokens", { tokens: formatCount(Number(tokens[1])) });
  if (window) return t("policy.window", { last: lastMessages(t, Number(window[1])) });
  return policyId;
}

/** The header's one line: what the model remembers now. */
export function describeMemory(t: T, state: MemoryStateView): string {
  if (!state.enabled) return t("state.off");
  const cleared = state.clearedThroughSeq > 0;
  if (cleared && state.historyMessages <= state.clearedThroughSeq) return t("state.cleared");
  let text: string;
  switch (state.policy) {
    case "window":
      text = t("state.remembers", { last: lastMessages(t, state.maxMessages) });
      break;
    case "tokens":
      text = t("state.tokens", {
        tokens: formatCount(state.maxTokens),
        messages: messages(t, state.maxMessages),
      });
      break;
    case "summary":
      text = t("policy.summary", { last: lastMessages(t, state.maxMessages) });
      if (state.summary) {
        const n = state.summary.messages;
        text = t("state.summarized", { text, n, count: formatCount(n) });
      }
      break;
  }
  return cleared ? t("state.sinceCleared", { text }) : text;
}

/** "Summary of #1–#40, v3 (40 messages)". */
export function describeSummary(
  t: T,
  summary: { fromSeq: number; throughSeq: number; messages: number; version: number },
) {
  return t("summary", {
    range: seqRange(summary),
    version: summary.version,
    messages: messages(t, summary.messages),
  });
}

/** The history range of seqs as the inspector writes it: "#4" or "#1–#40". */
const seqRange = ({ fromSeq, throughSeq }: { fromSeq: number; throughSeq: number }) =>
  fromSeq === throughSeq ? `#${fromSeq}` : `#${fromSeq}–#${throughSeq}`;

/** The line under an answer: "Used 3 earlier messages · 2 file passages · 2 memories · summary of #1–#40". */
export function describeMemoryUsed(t: T, used: MemoryUsed): string {
  const parts: string[] = [];
  const recalled = used.recalled.length;
  const files = used.files.length;
  const facts = used.facts.length;
  if (recalled > 0) parts.push(t("used.recalled", { n: recalled, count: formatCount(recalled) }));
  if (files > 0) parts.push(t("used.files", { n: files, count: formatCount(files) }));
  if (facts > 0) parts.push(t("used.facts", { n: facts, count: formatCount(facts) }));
  if (used.summary) parts.push(t("used.summary", { range: seqRange(used.summary) }));
  return t("used.line", { list: parts.join(" · ") });
}

/** "Summary of #1–#40 (40 messages)": the summary item of the expanded line. */
export const describeSummaryUsed = (t: T, summary: NonNullable<MemoryUsed["summary"]>) =>
  t("used.summaryItem", { range: seqRange(summary), messages: messages(t, summary.messages) });

/** "handbook.md · part 3 of 12": a recalled file passage of the expanded line. */
export const describeFileUsed = (t: T, file: MemoryUsed["files"][number]) =>
  t("used.fileItem", { file: file.fileName, position: file.position, count: file.chunkCount });
