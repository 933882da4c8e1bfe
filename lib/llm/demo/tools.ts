import type { WireAnswer } from "../wire";
import { durationDaysOf } from "./duration";
import { extractFacts } from "./facts";
import { currentIndex, type DemoMessage, isChinese, sectionContents } from "./text";

// The demo model's use of Recall's tools: fixed rules over the question and the tools offered, where a real
// model would read the tools' descriptions. One table of rules, then one reply per tool result.

const TIME =
  /\bwhat(?:'s|’s|\s+is)\s+the\s+(?:time|date)\b|\bwhat\s+time\s+is\s+it\b|\bwhat\s+day\s+is\s+(?:it|today)\b|现在几点|今天几号|今天是几月几号/i;
const KEEP_CHECKING = /\bkeep\s+checking\s+the\s+time\b/i;
const ABOUT_ME =
  /\bwhat\s+do\s+you\s+(?:know|remember)\s+about\s+me\b|\bwhat\s+have\s+you\s+remembered\b|你(?:知道|记得)(?:关于)?我(?:的)?(?:什么|哪些)/i;
const REMEMBER_THAT =
  /(?:^|[.!?]\s+|\b(?:please|pls|kindly|(?:can|could|would|will)\s+you)\s+)remember\s+that\s+(.+?)\s*[.!。]*$/is;
const first = (q: string, ...patterns: RegExp[]) =>
  patterns.map((p) => p.exec(q)?.[1]?.trim()).find(Boolean) ?? null;
const argument =
  (name: string, ...patterns: RegExp[]) =>
  (q: string): Record<string, unknown> | null => {
    const value = first(q, ...patterns);
    return value ? { [name]: value } : null;
  };
const SEARCH = /\bsearch\s+(?:my\s+|your\s+)?memor(?:y|ies)\s+(?:for|about)\s+(.+?)\s*[?.!]*$/is;
const FORGET = /^(?:please\s+)?forget\s+(?:about\s+|that\s+)?(.+?)\s*[.!]*$/is;
const capitalize = (s: string) => (s[0]?.toUpperCase() ?? "") + s.slice(1);
const keys = (text: string) => extractFacts(text).flatMap((f) => (f.kind === "attribute" ? [f.key] : []));

/** A statement changing a subject the system's notes hold ("my colour is now amber"): the fact to remember. */
function updatedFact(question: string, messages: readonly DemoMessage[]): string | null {
  const q = question.replace(/[.!。！]+$/u, "");
  const subjects = keys(q);
  const same = sectionContents(messages).notes.filter((note) => keys(note).some((k) => subjects.includes(k)));
  if (same.length === 0) return null;
  const fact = capitalize(q.replace(/\b(is|are|was|were)\s+now\s+/i, "$1 ").replace(/现在是/u, "是"));
  return same.includes(fact) ? null : fact;
}

/** Per tool, the arguments of a call for the question; null: the question does not call for it. */
const RULES: [string, (q: string, messages: readonly DemoMessage[]) => Record<string, unknown> | null][] = [
  ["current_time", (q) => (TIME.test(q) || KEEP_CHECKING.test(q) ? {} : null)],
  ["search_memories", argument("query", SEARCH, /搜索(?:我的)?记忆[:：,，\s]*(.+?)[？?。]*$/su)],
  ["forget", argument("memory", FORGET, /^(?:请)?(?:忘记|忘掉)[:：,，\s]*(.+?)[。！!]*$/su)],
  [
    "remember",
    (q, messages) => {
      const said = REMEMBER_THAT.exec(q)?.[1]?.trim();
      const fact = said
        ? capitalize(said)
        : (first(q, /^(?:请)?(?:帮我)?记住[:：,，\s]*(.+?)[。！!]*$/su) ?? updatedFact(q, messages));
      if (!fact) return null;
      const days = durationDaysOf(fact);
      return days ? { fact, days } : { fact };
    },
  ],
];

type Result = Record<string, unknown>;
const texts = (v: unknown) =>
  (Array.isArray(v) ? (v as { text?: string }[]) : []).map((f) => f.text).filter((t): t is string => !!t);

/** What the demo says about one tool result: [English, Chinese], by the first kind of result it is. */
const RESULTS: ((r: Result) => [string, string] | null)[] = [
  (r) =>
    typeof r.error === "string" ? [`The tool reported an error: ${r.error}`, `工具出错了：${r.error}`] : null,
  (r) => {
    const remembered = (r.remembered as { text?: string } | undefined)?.text;
    const also = texts(r.replaced);
    if (!remembered) return null;
    return [
      `Got it — I'll remember: ${remembered}.${also.length ? ` This replaces: ${also.join("; ")}.` : ""}`,
      `好的，我记住了：${remembered}${also.length ? `（替换了：${also.join("；")}）` : ""}`,
    ];
  },
  (r) => {
    const gone = texts(r.forgotten);
    if (!Array.isArray(r.forgotten)) return null;
    return gone.length
      ? [`Done — I forgot: ${gone.join("; ")}.`, `已忘记：${gone.join("；")}`]
      : ["I found no memory matching that, so nothing was forgotten.", "我没有找到与之相符的记忆。"];
  },
  (r) => {
    const found = texts(r.memories);
    if (!Array.isArray(r.memories)) return null;
    return found.length
      ? [`Memories I found: ${found.join("; ")}.`, `找到的记忆：${found.join("；")}`]
      : ["I found no memories about that.", "没有找到相关的记忆。"];
  },
  (r) => (typeof r.now === "string" ? [`It is now ${r.now}.`, `现在是 ${r.now}。`] : null),
  () => ["Done.", "完成了。"],
];

function parse(text: string): Result {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null ? (v as Result) : { result: v };
  } catch {
    return { result: text };
  }
}

/**
 * The tool step of the demo: after the question, the call its rules plan for the tools offered; after tool
 * results, a reply saying what they did ("keep checking the time" calls again, forever). Null: a plain reply.
 */
export function demoToolStep(
  messages: readonly DemoMessage[],
  offered: readonly string[],
): WireAnswer | null {
  const at = currentIndex(messages);
  if (at < 0) return null;
  const q = (messages[at]?.text ?? "").trim();
  const results = messages.slice(at + 1).filter((m) => m.role === "tool");
  // Told to keep checking the time, it calls the clock again after every result (the turn's step limit stops it).
  if (results.length > 0 && !(offered.includes("current_time") && KEEP_CHECKING.test(q))) {
    const said = results.map((m) => RESULTS.map((line) => line(parse(m.text))).find(Boolean) ?? ["", ""]);
    return { reply: said.map(([en, zh]) => (isChinese(q) ? zh : en)).join("\n") };
  }
  for (const [name, match] of RULES) {
    const args = offered.includes(name) ? match(q, messages) : null;
    if (args) return { calls: [{ name, arguments: args }] };
  }
  return null;
}

/** "What do you know about me?" answered from the system's notes; null for other questions. */
export function aboutMe(messages: readonly DemoMessage[]): string | null {
  const q = messages[currentIndex(messages)]?.text ?? "";
  if (!ABOUT_ME.test(q)) return null;
  const { notes } = sectionContents(messages);
  const list = notes.map((f) => `- ${f}`).join("\n");
  if (isChinese(q)) return notes.length ? `我记得关于你的这些事：\n${list}` : "我还没有关于你的长期记忆。";
  return notes.length
    ? `Here is what I remember about you:\n${list}`
    : "I don't have any long-term memories about you yet. Tell me something and ask me to remember it.";
}
