// Server side: ICU strings → icu-minify's compact form (the parser stays out of the browser bundle).
import compile from "icu-minify/compile";
import type { CompiledMessage } from "icu-minify/format";
import { type CompiledMessages, flattenMessages } from "./translate";

export function compileMessages(messages: Record<string, unknown>): CompiledMessages {
  const out: CompiledMessages = {};
  for (const [ns, tree] of Object.entries(messages)) {
    const compiled: Record<string, CompiledMessage> = {};
    for (const [key, text] of Object.entries(flattenMessages(tree))) compiled[key] = compile(text);
    out[ns] = compiled;
  }
  // icu-minify builds some nodes without a prototype; React only hands plain objects to client components.
  return JSON.parse(JSON.stringify(out)) as CompiledMessages;
}
