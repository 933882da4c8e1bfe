// Small text helpers of the demo model, and its reading of the system's sections.

/** A message as the demo reads it: a role, its text, and for user messages the images it carries. */
export interface DemoMessage {
  role: string;
  text: string;
  images?: readonly string[];
}

// Opening quote → closing quote.
const QUOTES: Record<string, string> = Object.fromEntries(
  ['""', "“”", "''", "‘’", "«»", "「」", "『』", "``"].map((q) => [...q]),
);

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
export const isChinese = (s: string) => /\p{Script=Han}/u.test(s);
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** At most `max` characters (code points), with "…" when cut. */
export function clip(s: string, max: number): string {
  const chars = [...collapse(s)];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : chars.join("");
}

/** Without end punctuation and surrounding quotes. */
export function unquote(raw: string): string {
  const v = collapse(raw).replace(/[\s.,!?;:。！？，；：、]+$/u, "");
  const close = v[0] ? QUOTES[v[0]] : undefined;
  return close && v.length >= 2 && v.endsWith(close) ? v.slice(1, -1).trim() : v;
}

/** A quoted value at the start of `s` ("'kiwi-7' and …" → kiwi-7), or null. */
export function leadingQuote(s: string): string | null {
  const close = s[0] ? QUOTES[s[0]] : undefined;
  const at = close ? s.indexOf(close, 1) : -1;
  return at > 1 ? s.slice(1, at).trim() : null;
}

/** Sentences, keeping end punctuation: an ASCII . ! ? ends one only before a space or the end. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((line) => [...line.matchAll(/.*?(?:[.!?]+(?=\s|$)|[。！？；;]+|$)/gu)].map((m) => m[0].trim()))
    .filter(Boolean);
}

export function joinAnd(items: readonly string[], comma = ", "): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(comma)} and ${items.at(-1)}`;
}

/** Index of the current question (the last user message); -1 when there is none. */
export const currentIndex = (messages: readonly DemoMessage[]) =>
  messages.findLastIndex((m) => m.role === "user");

/** A summary's line of what the user said ("User: …"), or of how much else they said. */
export const USER_LINE = /^\s*(?:[-*•]\s+)?User:[ \t]*(.*?)\s*$/;
export const OTHER_THINGS = /^talked about (\d+) other things?\.$/;
// A section opens with a heading of a few words and a colon ("Long-term memory: …"); the system prompt has none.
const SECTION = /^\p{L}[^:\n]{0,38}\s[^:\n]*:/u;
const NOTE = /^\s*-\s+(?:\[[^\]\s]+\]\s+)?(.+)$/;
// A recalled message: "- [2026-11-03 14:02 UTC · user · #45 · from "Trip"] text", continued on lines indented by two.
const RECALLED = /^- \[[^\]\n]*? · (user|assistant|tool|system) · #\d+(?: · from ".*?")?\] ?(.*)$/;

/**
 * What the system's sections say, in order: their notes ("- …" lines), the "User: …" lines of summaries, and the
 * messages they recall from the conversation history, with the role each was said in. Never the system prompt.
 */
export function sectionContents(messages: readonly DemoMessage[]) {
  const notes: string[] = [];
  const summarized: string[] = [];
  const recalled: { role: string; text: string }[] = [];
  for (const m of messages.filter((m) => m.role === "system" && SECTION.test(m.text))) {
    let open: { role: string; text: string } | undefined;
    for (const line of m.text.split("\n")) {
      const r = RECALLED.exec(line);
      if (r) {
        open = { role: r[1] ?? "", text: r[2] ?? "" };
        recalled.push(open);
      } else if (open && line.startsWith("  ")) open.text += `\n${line.slice(2)}`;
      else {
        open = undefined;
        const said = USER_LINE.exec(line)?.[1];
        if (said && !OTHER_THINGS.test(said)) summarized.push(said);
        else notes.push(NOTE.exec(line)?.[1]?.trim() ?? "");
      }
    }
  }
  return { notes: notes.filter(Boolean), summarized, recalled };
}
