import { EXTRACTION_INSTRUCTIONS } from "./extraction-instructions";
import { formatListing, type ListingEntry } from "./scripted-listing";
import { SUMMARY_INSTRUCTIONS } from "./summary-instructions";
import { toolCommand } from "./tool-command";
import type { WireAnswer, WireMessage, WireRequest } from "./wire";

// The scripted test model (OFFLINE_MODEL=scripted, docs/decisions/022-test-model.md). It understands nothing: a
// `/tool` question calls the tool the test scripted; a summary request is answered with the "User: …" lines it
// holds; anything else with the listing of what it received (lib/llm/scripted-listing.ts). Tests assert on what
// reached the model, not on what a model made of it.

const EXTRACTION_MARK = EXTRACTION_INSTRUCTIONS.split("\n")[0] ?? "";

export const SCRIPTED_MODEL_NAME = "recall-scripted";

const SECTION = /^([^:\n]{1,40}):/;
const SUMMARY_MARK = SUMMARY_INSTRUCTIONS.split("\n")[0] ?? "";

function entry(m: WireMessage, i: number): ListingEntry {
  const images = m.images.length ? ` +${m.images.length} image${m.images.length === 1 ? "" : "s"}` : "";
  const calls = m.calls.map((c) => `→ ${c.name} ${c.arguments}`).join(" ");
  const text = m.role === "assistant" ? (m.text.split("\n")[0] ?? "") : m.text;
  const section = m.role === "system" ? SECTION.exec(m.text)?.[1] : undefined;
  return {
    index: i + 1,
    role: m.role,
    ...(section ? { section } : {}),
    text: [text, calls].filter(Boolean).join(" ") + images,
  };
}

export function scriptedAnswer(request: WireRequest): WireAnswer {
  const command = toolCommand(request);
  if (command) return command;
  const { messages } = request;
  if (messages.some((m) => m.role === "system" && m.text.startsWith(SUMMARY_MARK))) {
    const lines = messages
      .filter((m) => m.role === "user")
      .flatMap((m) => m.text.split("\n"))
      .filter((line) => line.startsWith("User: "));
    return { reply: lines.join("\n") || "User: (nothing)" };
  }
  // An extraction request finds nothing: tests script facts through the demo model or the store.
  if (messages.some((m) => m.role === "system" && m.text.startsWith(EXTRACTION_MARK)))
    return { reply: '{"facts":[]}' };
  return {
    reply: formatListing({ received: messages.length, tools: request.tools, entries: messages.map(entry) }),
  };
}
