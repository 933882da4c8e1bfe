import type { MemoryItem, SummarizerInput } from "@/lib/memory";
import { getModel, type Model, streamReply } from "./client";
import { SUMMARY_INSTRUCTIONS } from "./summary-instructions";

function transcript(messages: readonly MemoryItem[]): string {
  return messages
    .filter((m) => m.role === "user" || m.role === "assistant")
    .map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.text}`)
    .join("\n");
}

/** The request a summary is made from: the instructions, then the previous summary and the messages leaving memory. */
export function summaryRequest(input: SummarizerInput): MemoryItem[] {
  const parts = [];
  if (input.previous) parts.push(`Previous summary:\n${input.previous}`);
  parts.push(`Messages to add:\n${transcript(input.messages)}`);
  return [
    { role: "system", text: SUMMARY_INSTRUCTIONS },
    { role: "user", text: parts.join("\n\n") },
  ];
}

/** Asks the model for a new summary; resolves to its text (blank when the model said nothing). */
export async function summarizeWithModel(
  input: SummarizerInput,
  signal?: AbortSignal,
  model: Model = getModel(),
): Promise<string> {
  let text = "";
  for await (const event of streamReply({ items: summaryRequest(input), model, signal })) {
    if (event.type === "done") text = event.text;
  }
  return text;
}
