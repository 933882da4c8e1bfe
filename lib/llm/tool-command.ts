import type { WireAnswer, WireMessage, WireRequest } from "./wire";

// `/tool <name> <JSON arguments>` as the current question makes an offline model (demo or scripted) call the offered
// tool <name> with those arguments, then answer with what the tool returned: a test, or a person trying out a
// tool (Recall's own or an MCP server's), can drive any tool without a model that understands language.

const COMMAND = /^\/tool\s+(\S+)(?:\s+([\s\S]*\S))?\s*$/;

/** The current question: the last user message, with its index. */
function currentQuestion(messages: readonly WireMessage[]): { index: number; text: string } {
  const index = messages.findLastIndex((m) => m.role === "user");
  return { index, text: messages[index]?.text ?? "" };
}

/** The answer to a `/tool` question; null when the question is no such command. */
export function toolCommand({ messages, tools }: WireRequest): WireAnswer | null {
  const question = currentQuestion(messages);
  const m = COMMAND.exec(question.text.trim());
  if (!m?.[1]) return null;
  const name = m[1];
  const results = messages.slice(question.index + 1).filter((x) => x.role === "tool");
  if (results.length > 0) return { reply: results.map((r) => `${name} → ${r.text}`).join("\n") };
  if (!tools.includes(name)) {
    return { reply: `/tool: ${name} is not offered (offered: ${tools.join(", ") || "none"}).` };
  }
  let args: unknown;
  try {
    args = JSON.parse(m[2] ?? "{}");
  } catch {
    return { reply: `/tool: the arguments of ${name} are not JSON.` };
  }
  return { calls: [{ name, arguments: args }] };
}
