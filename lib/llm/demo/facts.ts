import { normalizeSubject } from "@/lib/memory";
import { clip, joinAnd, splitSentences, unquote } from "./text";

// Facts stated in plain words and questions about them, English and Chinese: two tables of patterns applied
// sentence by sentence (a sentence that asks states nothing). Answers name the subject as asked.

type Lang = "en" | "zh";
type Fact =
  | { kind: "attribute"; lang: Lang; key: string; value: string }
  | { kind: "like"; lang: Lang; verb: string; value: string };
type FactQuestion =
  | { kind: "attribute"; lang: Lang; key: string; subject: string; determiner: string; verb: string }
  | { kind: "like"; lang: Lang };

const LEAD = String.raw`(?:(?:so|ok|okay|and|also|btw|oh|well|hey|hi|hello|now|then|actually|alright)\b[\s,]*)*`;
const ZH_LEAD = "(?:请问|那么|那|还有|对了|好的|好)?[，,\\s]*";
const SUBJECT = String.raw`((?:[\p{L}\p{N}'’-]+\s+){0,3}?[\p{L}\p{N}'’-]+)`;
const ZH_SUBJECT = "([^\\s，。！？；、,.!?;:：是]{1,12}?)";
const ZH_OWNER = "(的|最喜欢的|喜欢的|最爱的)";
const END = String.raw`(?:\s+again|\s+now)?[\s,]*(?:please)?\s*[?？.!。！]*$`;
const ZH_END = "(?:来着)?[呢呀啊吗]?[？?。！!]*$";
const NOW = String.raw`(?:now\s+|still\s+|actually\s+|currently\s+)?`;

const NOT_SUBJECT = new Set(
  (
    "i me you he she it we they this that these those there here what who whom which where when why how is are " +
    "was were be am do does did not no yes and or but if so because remember think know guess hope everything " +
    "nothing something anything all one answer question weather today tomorrow yesterday"
  ).split(" "),
);

/** The subject key of an English phrase; null when it holds a pronoun, question word or verb ("it is"). */
function subjectKey(phrase: string): string | null {
  const key = normalizeSubject(phrase);
  if (!key || !/^\p{L}/u.test(key) || key.split(" ").some((w) => NOT_SUBJECT.has(w))) return null;
  return key;
}

// "My dog is called Biscuit" states the subject "dog's name"; asked "what is my dog called?", so is the answer.
const named = (subject: string) => `${subject}'s name`;
const en = (determiner: string, subject: string, verb = "is", called = false): FactQuestion | null => {
  const key = subjectKey(called ? named(subject) : subject);
  const plural = /^(?:are|were)$/i.test(verb);
  return key
    ? {
        kind: "attribute",
        lang: "en",
        key,
        subject: subject.trim(),
        determiner: determiner.toLowerCase(),
        verb: `${plural ? "are" : "is"}${called ? " called" : ""}`,
      }
    : null;
};
const zh = (owner = "", subject = "", verb = "是"): FactQuestion => {
  const key = `${owner}${subject}`;
  return { kind: "attribute", lang: "zh", key, subject: key, determiner: "my", verb };
};

const QUESTIONS: [RegExp, (m: RegExpExecArray) => FactQuestion | null][] = [
  [
    new RegExp(
      String.raw`^${LEAD}what(?:'s|’s|\s+(is|was|are|were))\s+(my|the|our)\s+${SUBJECT}\s+(?:called|named)${END}`,
      "iu",
    ),
    (m) => en(m[2] ?? "", m[3] ?? "", m[1], true),
  ],
  [
    new RegExp(
      String.raw`^${LEAD}what(?:'s|’s|\s+(is|was|are|were))\s+(my|the|our)\s+${SUBJECT}${END}`,
      "iu",
    ),
    (m) => en(m[2] ?? "", m[3] ?? "", m[1]),
  ],
  [
    new RegExp(
      String.raw`^${LEAD}(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:know|remember|recall|tell\s+me)\s+(?:what\s+)?(my|the|our)\s+${SUBJECT}(?:\s+(?:is|was))?${END}`,
      "iu",
    ),
    (m) => en(m[1] ?? "", m[2] ?? ""),
  ],
  [
    new RegExp(String.raw`^${LEAD}(?:tell\s+me|remind\s+me\s+of)\s+(my|our)\s+${SUBJECT}${END}`, "iu"),
    (m) => en(m[1] ?? "", m[2] ?? ""),
  ],
  [
    new RegExp(
      String.raw`^${LEAD}(?:(?:do|did|can)\s+you\s+(?:still\s+)?(?:know|remember|recall)\s+)?what\s+(?:things\s+)?(?:do\s+|did\s+)?(?:i\s+(?:say|said|tell\s+you)\s+)?i\s+(?:really\s+)?(?:like|love|enjoy|adore)${END}`,
      "iu",
    ),
    () => ({ kind: "like", lang: "en" }),
  ],
  [
    new RegExp(`^${ZH_LEAD}我${ZH_OWNER}${ZH_SUBJECT}(是|叫)(?:什么|啥|多少|哪个|哪一个|谁)${ZH_END}`, "u"),
    (m) => zh(m[1], m[2], m[3]),
  ],
  [
    new RegExp(
      `^${ZH_LEAD}你(?:还)?(?:知道|记得)我${ZH_OWNER}${ZH_SUBJECT}(?:是(?:什么|啥|多少))?吗[？?。！!]*$`,
      "u",
    ),
    (m) => zh(m[1], m[2]),
  ],
  [
    /^(?:请问|那么|那|还有|对了|好的|好)?[，,\s]*(?:你(?:还)?(?:知道|记得))?我(?:最)?(?:喜欢|爱)(?:什么|啥)(?:东西)?(?:来着)?[呢呀啊吗]?[？?。！!]*$/u,
    () => ({ kind: "like", lang: "zh" }),
  ],
];

function sentenceQuestion(sentence: string): FactQuestion | null {
  // The sentence, or what follows one of its commas ("Thanks, what is my code word?").
  const starts = [0, ...[...sentence.matchAll(/[,，]/g)].map((m) => (m.index ?? 0) + 1)];
  for (const start of starts) {
    const clause = sentence.slice(start).trim();
    for (const [re, make] of QUESTIONS) {
      const m = re.exec(clause);
      const q = m ? make(m) : null;
      if (q) return q;
    }
  }
  return null;
}

/** The fact a text asks about (its last question sentence wins), or null. */
export function parseFactQuestion(text: string): FactQuestion | null {
  for (const sentence of splitSentences(text).reverse()) {
    const q = sentenceQuestion(sentence);
    if (q) return q;
  }
  return null;
}

const EN_VALUE_END =
  /[,;，；]|\s+(?:and|but|so|because|though|although|while)\s+(?:i|i'm|my|we|you|it|that|this|the)\b/i;
const value = (rest: string, end: RegExp, tail: RegExp) => {
  const cut = end.exec(rest);
  return clip(unquote(unquote(cut ? rest.slice(0, cut.index) : rest).replace(tail, "")), 80);
};
const enValue = (rest: string) => value(rest, EN_VALUE_END, /\s+(?:now|too|as well|again)$/i);
const zhValue = (rest: string) => value(rest, /[，,；;]/, /(?<=.)[了啦呀哦吧]$/u);
const attr = (lang: Lang, key: string | null, v: string): Fact | null =>
  key && v ? { kind: "attribute", lang, key, value: v } : null;

const STATEMENTS: [RegExp, (m: RegExpMatchArray, rest: string) => Fact | null][] = [
  [
    new RegExp(String.raw`\bmy\s+${SUBJECT}\s+(?:is|was)\s+${NOW}(?:called|named)\s+`, "giu"),
    (m, rest) => attr("en", subjectKey(named(m[1] ?? "")), enValue(rest)),
  ],
  [
    new RegExp(String.raw`\bmy\s+${SUBJECT}\s+(?:is|are|was)\s+${NOW}`, "giu"),
    (m, rest) => attr("en", subjectKey(m[1] ?? ""), enValue(rest)),
  ],
  [
    new RegExp(String.raw`^${LEAD}(?!my\b)(?:(?:the|our)\s+)?${SUBJECT}\s+(?:is|are)\s+${NOW}`, "giu"),
    (m, rest) => attr("en", subjectKey(m[1] ?? ""), enValue(rest)),
  ],
  [
    /(?<!\b(?:what|how\s+much)\s+)\bi\s+(?:really\s+|also\s+|just\s+|totally\s+|absolutely\s+|do\s+)?(like|love|enjoy|adore)\s+/giu,
    (m, rest) => {
      const v = enValue(rest);
      return v ? { kind: "like", lang: "en", verb: (m[1] ?? "like").toLowerCase(), value: v } : null;
    },
  ],
  [
    new RegExp(
      `我${ZH_OWNER}${ZH_SUBJECT}(?:现在|如今|已经)?(?:是|改成了?|换成了?|变成了?|改为|叫做?)`,
      "gu",
    ),
    (m, rest) => attr("zh", `${m[1] ?? ""}${m[2] ?? ""}`, zhValue(rest)),
  ],
  [
    /我(?:也|还|很|真|超|最|非常|特别|真的|一直)*(喜欢|爱)(?!的|什么|啥)/gu,
    (m, rest) => {
      const v = zhValue(rest);
      return v ? { kind: "like", lang: "zh", verb: m[1] === "爱" ? "love" : "like", value: v } : null;
    },
  ],
];

const asks = (sentence: string) =>
  /[?？]$|[吗呢嘛][。.]?$/u.test(sentence) || sentenceQuestion(sentence) !== null;

/** The facts a text states, in the order it states them. */
export function extractFacts(text: string): Fact[] {
  return splitSentences(text)
    .filter((sentence) => !asks(sentence))
    .flatMap((sentence) =>
      STATEMENTS.flatMap(([head, make]) =>
        [...sentence.matchAll(head)].map((m) => ({
          at: m.index ?? 0,
          fact: make(m, sentence.slice((m.index ?? 0) + m[0].length)),
        })),
      )
        .filter((f): f is { at: number; fact: Fact } => f.fact !== null)
        .sort((a, b) => a.at - b.at)
        .map((f) => f.fact),
    );
}

const ZH_VERB: Record<string, string> = { like: "喜欢", love: "爱", enjoy: "喜欢", adore: "爱" };

/** The answer to `q` from what the user stated (newest first), or null when nothing states it. */
export function recallFact(q: FactQuestion, newestFirst: readonly string[]): string | null {
  if (q.kind === "like") {
    const likes = new Map<string, Extract<Fact, { kind: "like" }>>();
    for (const text of [...newestFirst].reverse()) {
      for (const f of extractFacts(text)) {
        if (f.kind !== "like") continue;
        likes.delete(f.value.toLowerCase());
        likes.set(f.value.toLowerCase(), f);
      }
    }
    const last = [...likes.values()].slice(-5);
    if (last.length === 0) return null;
    return q.lang === "zh"
      ? `你${last.map((l) => `${ZH_VERB[l.verb]}${l.value}`).join("，也")}。`
      : `You ${joinAnd(last.map((l) => `${l.verb} ${l.value}`))}.`;
  }
  for (const text of newestFirst) {
    const found = extractFacts(text)
      .filter((f) => f.kind === "attribute" && f.key === q.key)
      .at(-1);
    if (!found) continue;
    if (q.lang === "zh") return `你${q.subject}${q.verb}${found.value}。`;
    const owner = q.determiner === "my" ? "Your" : q.determiner === "our" ? "Our" : "The";
    return `${owner} ${q.subject} ${q.verb} ${found.value}.`;
  }
  return null;
}

/** "I don't know": for a question about the user (not about "the X", which falls through to other rules). */
export function unknownFact(q: FactQuestion): string | null {
  if (q.kind === "attribute" && q.determiner === "the") return null;
  const what = q.kind === "like" ? null : q.subject;
  const called = q.kind === "attribute" && q.verb === "叫" ? "叫什么" : "";
  if (q.lang === "zh")
    return `我不知道你${what ? `${what}${called}` : "喜欢什么"}——你在这段对话里没有告诉过我。`;
  const owner = q.kind === "attribute" && q.determiner === "our" ? "our" : "your";
  return `I don't know ${what ? `${owner} ${what}` : "what you like"} — you haven't told me in this conversation.`;
}
