import { formatCount } from "./format";
import type { MemoryStateView } from "./types";

// What a conversation's memory is, in plain words: the header's memory control and the context inspector say it
// the same way. Pure, so the wording is unit-tested (memory-words.test.ts).

const messages = (n: number) => (n === 1 ? "1 message" : `${formatCount(n)} messages`);
const lastMessages = (n: number) => (n === 1 ? "the last message" : `the last ${messages(n)}`);

/** "window:20" → "Window of the last 20 messages"; an id it does not know is returned as it is. */
export function describePolicy(policyId: string): string {
  const parts = policyId.split("+");
  const window = parts.map((p) => /^window:(\d+)$/.exec(p)).find(Boolean);
  const tokens = parts.map((p) => /^tokens:(\d+)$/.exec(p)).find(Boolean);
  const summary = /^summary:(\d+)\/(\d+)$/.exec(policyId);
  if (policyId === "none") return "Memory off";
  if (policyId === "unbounded") return "The whole history";
  if (summary) return `Summary + ${lastMessages(Number(summary[1]))}`;
  const known = (window ? 1 : 0) + (tokens ? 1 : 0);
  if (known !== parts.length) return policyId;
  if (tokens && window)
    return `Within ${formatCount(Number(tokens[1]))} tokens, at most ${lastMessages(Number(window[1]))}`;
  if (tokens) return `Within ${formatCount(Number(tokens[1]))} tokens`;
  if (window) return `Window of ${lastMessages(Number(window[1]))}`;
  return policyId;
}

/** The header's one line: what the model remembers now. */
export function describeMemory(state: MemoryStateView): string {
  if (!state.enabled) return "Memory off";
  const cleared = state.clearedThroughSeq > 0;
  if (cleared && state.historyMessages <= state.clearedThroughSeq) {
    return "Memory cleared — remembers only what was said since";
  }
  let text: string;
  switch (state.policy) {
    case "window":
      text = `Remembers ${lastMessages(state.maxMessages)}`;
      break;
    case "tokens":
      text = `Within ${formatCount(state.maxTokens)} tokens · up to ${messages(state.maxMessages)}`;
      break;
    case "summary":
      text = `Remembers ${lastMessages(state.maxMessages)}`;
      if (state.summary) {
        const n = state.summary.messages;
        text += ` · ${formatCount(n)} earlier ${n === 1 ? "one" : "ones"} summarized`;
      }
      break;
  }
  return cleared ? `${text} · since memory was cleared` : text;
}

/** "Summary of #1–#40, v3 (40 messages)". */
export function describeSummary(summary: {
  fromSeq: number;
  throughSeq: number;
  messages: number;
  version: number;
}) {
  const range =
    summary.fromSeq === summary.throughSeq
      ? `#${summary.fromSeq}`
      : `#${summary.fromSeq}–#${summary.throughSeq}`;
  return `Summary of ${range}, v${summary.version} (${messages(summary.messages)})`;
}
