// The offline model's use of tools (issue 11): a pure, deterministic decision from the request alone — the tools
// it was offered, the current question, the long-term memory section it was sent and the tool results that follow
// the question. Real models decide the same things from the tools' descriptions; this one follows fixed rules so
// that the feature is testable without a provider.

import { factsInSection, subjectOf } from "@/lib/memory/long-term";
import { extractFacts } from "./offline-facts";

export interface ToolMessage {
  role: string;
  text: string;
}

export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

const EN_REMEMBER_THAT =
  /(?:^|[.!?]\s+|\b(?:please|pls|kindly|(?:can|could|would|will)\s+you)\s+)remember\s+that\s+(.+?)\s*[.!。]*$/is;
const ZH_REMEMBER = /^(?:请)?(?:帮我)?记住[:：,，\s]*(.+?)[。！!]*$/su;
const EN_FORGET = /^(?:please\s+)?forget\s+(?:about\s+|that\s+)?(.+?)\s*[.!]*$/is;
const ZH_FORGET = /^(?:请)?(?:忘记|忘掉)[:：,，\s]*(.+?)[。！!]*$/su;
const EN_SEARCH = /\bsearch\s+(?:my\s+|your\s+)?memor(?:y|ies)\s+(?:for|about)\s+(.+?)\s*[?.!]*$/is;
const ZH_SEARCH = /搜索(?:我的)?记忆[:：,，\s]*(.+?)[？?。]*$/su;
const TIME_QUESTION =
  /\bwhat(?:'s|’s|\s+is)\s+the\s+(?:time|date)\b|\bwhat\s+time\s+is\s+it\b|\bwhat\s+day\s+is\s+(?:it|today)\b|现在几点|今天几号|今天是几月几号/i;
const KEEP_CHECKING = /\bkeep\s+checking\s+the\s+time\b/i;
const ABOUT_ME =
  /\bwhat\s+do\s+you\s+(?:know|remember)\s+about\s+me\b|\bwhat\s+have\s+you\s+remembered\b|你(?:知道|记得)(?:关于)?我(?:的)?(?:什么|哪些)/i;

const capitalize = (s: string) => (s ? s[0]?.toUpperCase() + s.slice(1) : s);

/** "Remember that my X is Y" → "My X is Y"; "记住我的X是Y" → "我的X是Y"; null when the question asks nothing kept. */
export function factToRemember(question: string): string | null {
  const q = question.trim();
  const en = EN_REMEMBER_THAT.exec(q);
  if (en?.[1]) return capitalize(en[1].trim());
  const zh = ZH_REMEMBER.exec(q);
  if (zh?.[1]) return zh[1].trim();
  return null;
}

/** The long-term facts the request carries (its long-term memory section), in the order sent. */
export function sectionFacts(messages: readonly ToolMessage[]): { id: string; text: string }[] {
  return messages.filter((m) => m.role === "system").flatMap((m) => factsInSection(m.text));
}

/**
 * A statement that changes a subject long-term memory already holds ("my favourite colour is now amber" when a
 * fact says it is teal): the new fact to remember, without the "now"; null otherwise.
 */
function updatedFact(question: string, known: readonly { text: string }[]): string | null {
  const subject = subjectOf(question);
  if (!subject || extractFacts(question).length === 0) return null;
  const same = known.filter((f) => subjectOf(f.text) === subject);
  if (same.length === 0) return null;
  const fact = capitalize(
    question
      .trim()
      .replace(/\b(is|are|was|were)\s+now\s+/i, "$1 ")
      .replace(/现在是/u, "是")
      .replace(/[.!。！]+$/u, ""),
  );
  return same.some((f) => f.text === fact) ? null : fact;
}

/** The tools to call for `question` (the current user message), given what was offered; [] for a plain reply. */
export function plannedCalls(
  question: string,
  offered: ReadonlySet<string>,
  messages: readonly ToolMessage[],
): PlannedCall[] {
  const q = question.trim();
  if (offered.has("current_time") && (TIME_QUESTION.test(q) || KEEP_CHECKING.test(q))) {
    return [{ name: "current_time", arguments: {} }];
  }
  if (offered.has("search_memories")) {
    const m = EN_SEARCH.exec(q) ?? ZH_SEARCH.exec(q);
    if (m?.[1]) return [{ name: "search_memories", arguments: { query: m[1] } }];
  }
  if (offered.has("forget")) {
    const m = EN_FORGET.exec(q) ?? ZH_FORGET.exec(q);
    if (m?.[1]) return [{ name: "forget", arguments: { memory: m[1] } }];
  }
  if (offered.has("remember")) {
    const fact = factToRemember(q) ?? updatedFact(q, sectionFacts(messages));
    if (fact) return [{ name: "remember", arguments: { fact } }];
  }
  return [];
}

/** Whether the model, having seen tool results, calls again (only "keep checking the time" does, forever). */
export function callsAgain(question: string, offered: ReadonlySet<string>): PlannedCall[] {
  return offered.has("current_time") && KEEP_CHECKING.test(question)
    ? [{ name: "current_time", arguments: {} }]
    : [];
}

type Result = Record<string, unknown>;

function parse(text: string): Result {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Result) : { result: value };
  } catch {
    return { result: text };
  }
}

const zh = (s: string) => /\p{Script=Han}/u.test(s);

/** The reply after tool results: what was done, in the question's language. */
export function replyAfterTools(question: string, results: readonly string[]): string {
  const chinese = zh(question);
  const lines = results.map((text) => {
    const r = parse(text);
    if (typeof r.error === "string") {
      return chinese ? `工具出错了：${r.error}` : `The tool reported an error: ${r.error}`;
    }
    const remembered = r.remembered as { text?: string } | undefined;
    if (remembered?.text) {
      const replaced = Array.isArray(r.replaced) ? (r.replaced as { text?: string }[]) : [];
      const also = replaced.map((f) => f.text).filter(Boolean);
      if (chinese)
        return `好的，我记住了：${remembered.text}${also.length ? `（替换了：${also.join("；")}）` : ""}`;
      return `Got it — I'll remember: ${remembered.text}.${also.length ? ` This replaces: ${also.join("; ")}.` : ""}`;
    }
    if (Array.isArray(r.forgotten)) {
      const texts = (r.forgotten as { text?: string }[]).map((f) => f.text).filter(Boolean);
      if (texts.length === 0) {
        return chinese
          ? "我没有找到与之相符的记忆。"
          : "I found no memory matching that, so nothing was forgotten.";
      }
      return chinese ? `已忘记：${texts.join("；")}` : `Done — I forgot: ${texts.join("; ")}.`;
    }
    if (Array.isArray(r.memories)) {
      const texts = (r.memories as { text?: string }[]).map((f) => f.text).filter(Boolean);
      if (texts.length === 0) return chinese ? "没有找到相关的记忆。" : "I found no memories about that.";
      return chinese ? `找到的记忆：${texts.join("；")}` : `Memories I found: ${texts.join("; ")}.`;
    }
    if (typeof r.now === "string") return chinese ? `现在是 ${r.now}。` : `It is now ${r.now}.`;
    return chinese ? "完成了。" : "Done.";
  });
  return lines.join("\n");
}

/** "What do you know about me?" answered from the long-term section; null for other questions. */
export function aboutMe(question: string, messages: readonly ToolMessage[]): string | null {
  if (!ABOUT_ME.test(question)) return null;
  const facts = sectionFacts(messages).map((f) => f.text);
  const chinese = zh(question);
  if (facts.length === 0) {
    return chinese
      ? "我还没有关于你的长期记忆。"
      : "I don't have any long-term memories about you yet. Tell me something and ask me to remember it.";
  }
  return chinese
    ? `我记得关于你的这些事：\n${facts.map((f) => `- ${f}`).join("\n")}`
    : `Here is what I remember about you:\n${facts.map((f) => `- ${f}`).join("\n")}`;
}
