// Small text helpers of the demo model.

/** A message as the demo reads it: a role, its text, and for user messages the images it carries. */
export interface DemoMessage {
  role: string;
  text: string;
  images?: readonly string[];
}

const QUOTES: Record<string, string> = {
  '"': '"',
  "“": "”",
  "'": "'",
  "‘": "’",
  "«": "»",
  "「": "」",
  "『": "』",
  "`": "`",
};

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
export const isChinese = (s: string) => /\p{Script=Han}/u.test(s);

/** At most `max` characters (code points), with "…" when cut. */
export function clip(s: string, max: number): string {
  const chars = [...collapse(s)];
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : chars.join("");
}

/** Without end punctuation and surrounding quotes. */
export function unquote(raw: string): string {
  let v = collapse(raw).replace(/[\s.,!?;:。！？，；：、]+$/u, "");
  const close = v[0] ? QUOTES[v[0]] : undefined;
  if (close && v.length >= 2 && v.endsWith(close)) v = v.slice(1, -1).trim();
  return v;
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

/**
 * Whether a message is a section the system sent about the user: a system message opening with a heading of a few
 * words and a colon ("Summary of the earlier conversation:", "Long-term memory: …"). The system prompt has none,
 * and is never read; nor is a speaker's line ("User: …").
 */
export const isSection = (m: DemoMessage) =>
  m.role === "system" && /^\p{L}[^:\n]{0,38}\s[^:\n]*:/u.test(m.text);

const NOTE = /^\s*-\s+(?:\[[^\]\s]+\]\s+)?(.+)$/;
// A recalled message: "- [2026-11-03 14:02 UTC · user · #45 · from "Trip"] text", continued on lines indented by two.
const RECALLED = /^- \[[^\]\n]*? · (user|assistant|tool|system) · #\d+(?: · from ".*?")?\] ?(.*)$/;

/**
 * What the system's sections say: their notes (the "- …" lines, in order) and the messages they recall from the
 * conversation history, with the role each was said in.
 */
export function sectionContents(messages: readonly DemoMessage[]) {
  const notes: string[] = [];
  const recalled: { role: string; text: string }[] = [];
  for (const m of messages.filter((m) => m.role === "system")) {
    let open: { role: string; text: string } | undefined;
    for (const line of m.text.split("\n")) {
      const r = RECALLED.exec(line);
      if (r) {
        open = { role: r[1] ?? "", text: r[2] ?? "" };
        recalled.push(open);
      } else if (open && line.startsWith("  ")) open.text += `\n${line.slice(2)}`;
      else {
        open = undefined;
        if (isSection(m)) notes.push(NOTE.exec(line)?.[1]?.trim() ?? "");
      }
    }
  }
  return { notes: notes.filter(Boolean), recalled };
}

/** Notes the system sent about the user (the "- …" lines of its sections, not recalled messages), in order. */
export const systemNotes = (messages: readonly DemoMessage[]) => sectionContents(messages).notes;
