import { normalizeSubject } from "@/lib/memory";
import { clip, joinAnd, splitSentences, unquote } from "./text";

// Facts stated in plain words and questions about them, English and Chinese: two tables of patterns applied
// sentence by sentence (a sentence that asks states nothing). Answers name the subject as asked.

type Lang = "en" | "zh";
/** A stated fact: an attribute of the user ("my code word is X"), or something they like (key "like:<value>"). */
type Fact = { kind: "attribute" | "like"; lang: Lang; key: string; value: string; verb: string };
/** A question about an attribute (`owner subject verb …`: "your dog is called …") or about what the user likes. */
type FactQuestion = Omit<Fact, "value"> & { subject: string; owner: string };

const re = (source: string, flags = "iu") => new RegExp(source, flags);
const LEAD = String.raw`(?:(?:so|ok|okay|and|also|btw|oh|well|hey|hi|hello|now|then|actually|alright)\b[\s,]*)*`;
const ZH_LEAD = "(?:请问|那么|那|还有|对了|好的|好)?[，,\\s]*";
const SUBJECT = String.raw`((?:[\p{L}\p{N}'’-]+\s+){0,3}?[\p{L}\p{N}'’-]+)`;
const ZH_SUBJECT = "([^\\s，。！？；、,.!?;:：是]{1,12}?)";
const ZH_OWNER = "(的|最喜欢的|喜欢的|最爱的)";
const END = String.raw`(?:\s+again|\s+now)?[\s,]*(?:please)?\s*[?？.!。！]*$`;
const ZH_END = "(?:来着)?[呢呀啊吗]?[？?。！!]*$";
const NOW = String.raw`(?:now\s+|still\s+|actually\s+|currently\s+)?`;
const KNOW = String.raw`(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:know|remember|recall)`;
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
  return key && /^\p{L}/u.test(key) && !key.split(" ").some((w) => NOT_SUBJECT.has(w)) ? key : null;
}

// "My dog is called Biscuit" states the subject "dog's name"; asked "what is my dog called?", so is the answer.
const named = (subject: string) => `${subject}'s name`;
const OWNER: Record<string, string> = { my: "your", our: "our", the: "the" };
const en = (determiner = "", subject = "", verb = "is", called = false): FactQuestion | null => {
  const key = subjectKey(called ? named(subject) : subject);
  const be = /^(?:are|were)$/i.test(verb) ? "are" : "is";
  const [owner, s] = [OWNER[determiner.toLowerCase()] ?? "your", subject.trim()];
  return key
    ? { kind: "attribute", lang: "en", key, subject: s, owner, verb: called ? `${be} called` : be }
    : null;
};
const zh = (owner = "", subject = "", verb = "是"): FactQuestion => {
  const key = `${owner}${subject}`;
  return { kind: "attribute", lang: "zh", key, subject: key, owner: "你", verb };
};
const LIKE = { kind: "like", key: "", subject: "", owner: "", verb: "" } as const;
const likes = (lang: Lang) => (): FactQuestion => ({ ...LIKE, lang });

const QUESTIONS: [RegExp, (m: RegExpExecArray) => FactQuestion | null][] = [
  [
    re(
      String.raw`^${LEAD}what(?:'s|’s|\s+(is|was|are|were))\s+(my|the|our)\s+${SUBJECT}(\s+(?:called|named))?${END}`,
    ),
    (m) => en(m[2], m[3], m[1], m[4] !== undefined),
  ],
  [
    re(
      String.raw`^${LEAD}(?:${KNOW}|(?:do|did|can|could)\s+you\s+tell\s+me)\s+(?:what\s+)?(my|the|our)\s+${SUBJECT}(?:\s+(?:is|was))?${END}`,
    ),
    (m) => en(m[1], m[2]),
  ],
  [re(String.raw`^${LEAD}who\s+am\s+i${END}`), () => en("my", "name")],
  [
    re(String.raw`^${LEAD}(?:tell\s+me|remind\s+me\s+of)\s+(my|our)\s+${SUBJECT}${END}`),
    (m) => en(m[1], m[2]),
  ],
  [
    re(
      String.raw`^${LEAD}(?:${KNOW}\s+)?what\s+(?:things\s+)?(?:do\s+|did\s+)?(?:i\s+(?:say|said|tell\s+you)\s+)?i\s+(?:really\s+)?(?:like|love|enjoy|adore)${END}`,
    ),
    likes("en"),
  ],
  [
    re(`^${ZH_LEAD}我${ZH_OWNER}${ZH_SUBJECT}(是|叫)(?:什么|啥|多少|哪个|哪一个|谁)${ZH_END}`),
    (m) => zh(m[1], m[2], m[3]),
  ],
  [
    re(`^${ZH_LEAD}你(?:还)?(?:知道|记得)我${ZH_OWNER}${ZH_SUBJECT}(?:是(?:什么|啥|多少))?吗[？?。！!]*$`),
    (m) => zh(m[1], m[2]),
  ],
  [
    re(`^${ZH_LEAD}(?:你(?:还)?(?:知道|记得))?我(?:最)?(?:喜欢|爱)(?:什么|啥)(?:东西)?${ZH_END}`),
    likes("zh"),
  ],
];

function sentenceQuestion(sentence: string): FactQuestion | null {
  // The sentence, or what follows one of its commas or colons ("Thanks, what is my code word?").
  const starts = [0, ...[...sentence.matchAll(/[,，:：]/g)].map((m) => (m.index ?? 0) + 1)];
  for (const clause of starts.map((start) => sentence.slice(start).trim())) {
    for (const [pattern, make] of QUESTIONS) {
      const m = pattern.exec(clause);
      const q = m && make(m);
      if (q) return q;
    }
  }
  return null;
}

/** The fact a text asks about (its last question sentence wins), or null. */
export const parseFactQuestion = (text: string): FactQuestion | null =>
  splitSentences(text).reverse().map(sentenceQuestion).find(Boolean) ?? null;

const EN_VALUE_END =
  /[,;，；]|\s+(?:and|but|so|because|though|although|while)\s+(?:i|i'm|my|we|you|it|that|this|the)\b/i;
const value = (lang: Lang, rest: string) => {
  const [end, tail] =
    lang === "en" ? [EN_VALUE_END, /\s+(?:now|too|as well|again)$/i] : [/[，,；;]/, /(?<=.)[了啦呀哦吧]$/u];
  const cut = end.exec(rest);
  return clip(unquote(unquote(cut ? rest.slice(0, cut.index) : rest).replace(tail, "")), 80);
};
type Head = { kind: Fact["kind"]; lang: Lang; key: string | null; verb: string };
const attr = (lang: Lang, key: string | null): Head => ({ kind: "attribute", lang, key, verb: "" });
const like = (lang: Lang, verb: string): Head => ({ kind: "like", lang, key: "", verb });

/** Statement patterns: each makes from its match the fact that what follows the match (its value) completes. */
const STATEMENTS: [RegExp, (m: RegExpMatchArray) => Head][] = [
  [
    re(String.raw`\bmy\s+${SUBJECT}\s+(?:is|are|was)\s+${NOW}((?:called|named)\s+)?`, "giu"),
    (m) => attr("en", subjectKey(m[2] ? named(m[1] ?? "") : (m[1] ?? ""))),
  ],
  [
    re(String.raw`^${LEAD}(?!my\b)(?:(?:the|our)\s+)?${SUBJECT}\s+(?:is|are)\s+${NOW}`, "giu"),
    (m) => attr("en", subjectKey(m[1] ?? "")),
  ],
  [
    /(?<!\b(?:what|how\s+much)\s+)\bi\s+(?:really\s+|also\s+|just\s+|totally\s+|absolutely\s+|do\s+)?(like|love|enjoy|adore)\s+/giu,
    (m) => like("en", (m[1] ?? "like").toLowerCase()),
  ],
  [
    re(`我${ZH_OWNER}${ZH_SUBJECT}(?:现在|如今|已经)?(?:是|改成了?|换成了?|变成了?|改为|叫做?)`, "gu"),
    (m) => attr("zh", `${m[1] ?? ""}${m[2] ?? ""}`),
  ],
  [
    /我(?:也|还|很|真|超|最|非常|特别|真的|一直)*(喜欢|爱)(?!的|什么|啥)/gu,
    (m) => like("zh", m[1] === "爱" ? "love" : "like"),
  ],
];

const asks = (sentence: string) =>
  /[?？]$|[吗呢嘛][。.]?$/u.test(sentence) || sentenceQuestion(sentence) !== null;

/** The facts a text states, in the order it states them. */
export function extractFacts(text: string): Fact[] {
  return splitSentences(text)
    .filter((sentence) => !asks(sentence))
    .flatMap((sentence) =>
      STATEMENTS.flatMap(([pattern, make]) =>
        [...sentence.matchAll(pattern)].flatMap((m) => {
          const head = make(m);
          const v = value(head.lang, sentence.slice((m.index ?? 0) + m[0].length));
          const key = head.kind === "like" ? `like:${v.toLowerCase()}` : head.key;
          return key && v ? [{ at: m.index ?? 0, fact: { ...head, key, value: v } }] : [];
        }),
      )
        .sort((a, b) => a.at - b.at)
        .map((f) => f.fact),
    );
}

const ZH_VERB: Record<string, string> = { like: "喜欢", love: "爱", enjoy: "喜欢", adore: "爱" };
const capital = (s: string) => (s[0]?.toUpperCase() ?? "") + s.slice(1);

/** The answer to `q` from what the user stated (newest first), or null when nothing states it. */
export function recallFact(q: FactQuestion, newestFirst: readonly string[]): string | null {
  if (q.kind === "like") {
    const liked = new Map<string, Fact>();
    for (const f of [...newestFirst].reverse().flatMap(extractFacts)) {
      if (f.kind !== "like") continue;
      liked.delete(f.key); // the newest mention is the last one listed
      liked.set(f.key, f);
    }
    const last = [...liked.values()].slice(-5);
    if (last.length === 0) return null;
    return q.lang === "zh"
      ? `你${last.map((l) => `${ZH_VERB[l.verb]}${l.value}`).join("，也")}。`
      : `You ${joinAnd(last.map((l) => `${l.verb} ${l.value}`))}.`;
  }
  for (const text of newestFirst) {
    const found = extractFacts(text).findLast((f) => f.kind === "attribute" && f.key === q.key);
    if (!found) continue;
    return q.lang === "zh"
      ? `你${q.subject}${q.verb}${found.value}。`
      : `${capital(q.owner)} ${q.subject} ${q.verb} ${found.value}.`;
  }
  return null;
}

/** "I don't know": for a question about the user (not about "the X", which falls through to other rules). */
export function unknownFact(q: FactQuestion): string | null {
  if (q.owner === "the") return null;
  if (q.lang === "zh") {
    const what = q.kind === "like" ? "喜欢什么" : `${q.subject}${q.verb === "叫" ? "叫什么" : ""}`;
    return `我不知道你${what}——你在这段对话里没有告诉过我。`;
  }
  const what = q.kind === "like" ? "what you like" : `${q.owner} ${q.subject}`;
  return `I don't know ${what} — you haven't told me in this conversation.`;
}
