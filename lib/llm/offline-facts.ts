// Fact recall for the offline model: facts stated naturally in earlier user messages ("My code word is X",
// "The wifi password is X", "I like X", "我的暗号是X", "我喜欢X") and questions about them ("What is my code
// word?", "What do I like?", "我的暗号是什么？"). Pure and deterministic; it knows only the texts it is given.
// Patterns are small tables of one regex each; the sentence is the unit (questions never count as statements).

export type FactLang = "en" | "zh";
export type LikeVerb = "like" | "love" | "enjoy" | "adore";

/** "My code word is X": an attribute (`key` is the normalised subject). "I like X": a like. */
export type Fact =
  | { kind: "attribute"; lang: FactLang; key: string; value: string }
  | { kind: "like"; lang: FactLang; verb: LikeVerb; value: string };

/** A question about a fact, with what is needed to word the answer in the question's language. */
export type FactQuestion =
  | {
      kind: "attribute";
      lang: FactLang;
      key: string;
      /** The subject as asked ("code word", "favourite colour"; in Chinese "的暗号", "最喜欢的颜色"). */
      subject: string;
      /** "my", "the" or "our" (English); "my" in Chinese. */
      determiner: string;
      plural: boolean;
    }
  | { kind: "like"; lang: FactLang };

const MAX_VALUE_CHARS = 80;
const MAX_LIKES = 5;

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

const QUOTES: Record<string, string> = {
  '"': '"',
  "“": "”",
  "'": "'",
  "‘": "’",
  "「": "」",
  "『": "』",
  "`": "`",
};

function cleanValue(raw: string): string {
  let v = raw
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\s.,!?;:。！？，；：、]+$/u, "");
  const close = v[0] ? QUOTES[v[0]] : undefined;
  if (close && v.length >= 2 && v.endsWith(close)) v = v.slice(1, -1).trim();
  const chars = [...v];
  return chars.length > MAX_VALUE_CHARS ? `${chars.slice(0, MAX_VALUE_CHARS).join("")}…` : v;
}

/** Splits into sentences, keeping end punctuation: an ASCII . ! ? ends one only before a space or the end. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const m of line.matchAll(/.*?(?:[.!?]+(?=\s|$)|[。！？；;]+|$)/gu)) {
      const sentence = m[0].trim();
      if (sentence) out.push(sentence);
    }
  }
  return out;
}

// A sentence lead-in that changes nothing: "So, what is my code word?", "Ok and my code word is …".
const EN_LEAD = String.raw`(?:(?:so|ok|okay|and|also|btw|oh|well|hey|hi|hello|now|then|actually|alright)\b[\s,]*)*`;
const ZH_LEAD = "(?:请问|那么|那|还有|对了|好的|好)?[，,\\s]*";
// An English subject: one to four words ("code word", "favourite colour", "dog's name").
const EN_SUBJECT = String.raw`((?:[\p{L}\p{N}'’-]+\s+){0,3}?[\p{L}\p{N}'’-]+)`;
// A Chinese subject after 我的 / 我最喜欢的 …: up to twelve characters, without 是 or punctuation.
const ZH_SUBJECT = "([^\\s，。！？；、,.!?;:：是]{1,12}?)";
const ZH_OWNER = "(的|最喜欢的|喜欢的|最爱的)";
const EN_END = String.raw`(?:\s+again|\s+now)?[\s,]*(?:please)?\s*[?？.!。！]*$`;
const ZH_END = "(?:来着)?[呢呀啊吗]?[？?。！!]*$";

// Words that make a subject phrase not a subject ("it is", "this is", "what is", "my sister and I are").
const NOT_SUBJECT_WORDS = new Set(
  (
    "i me you he she it we they this that these those there here what who whom which where when why how " +
    "is are was were be am do does did not no yes and or but if so because remember think know guess hope " +
    "everything nothing something anything all one answer question weather today tomorrow yesterday"
  ).split(" "),
);

// Spelling variants that name the same subject.
const SUBJECT_SYNONYMS: Record<string, string> = {
  favorite: "favourite",
  fav: "favourite",
  color: "colour",
  colors: "colours",
  codeword: "code word",
  "e-mail": "email",
  passcode: "pass code",
};

/** "The Favorite  Color" → "favourite colour"; null when the phrase is not a sensible subject. */
export function normaliseSubject(subject: string): string | null {
  const words = subject.toLowerCase().replaceAll("’", "'").split(/\s+/).filter(Boolean);
  while (words[0] === "the" || words[0] === "my" || words[0] === "our") words.shift();
  if (words.length === 0 || words.some((w) => NOT_SUBJECT_WORDS.has(w))) return null;
  if (!/^\p{L}/u.test(words[0] ?? "")) return null;
  return words.map((w) => SUBJECT_SYNONYMS[w] ?? w).join(" ");
}

// ---------------------------------------------------------------------------------------------------------
// Questions
// ---------------------------------------------------------------------------------------------------------

interface QuestionPattern {
  re: RegExp;
  toQuestion: (m: RegExpExecArray) => FactQuestion | null;
}

function englishAttribute(determiner: string, subject: string, verb = "is"): FactQuestion | null {
  const key = normaliseSubject(subject);
  if (!key) return null;
  const plural = /^(?:are|were)$/i.test(verb);
  return {
    kind: "attribute",
    lang: "en",
    key,
    subject: subject.trim(),
    determiner: determiner.toLowerCase(),
    plural,
  };
}

function chineseAttribute(owner: string, subject: string): FactQuestion {
  const key = `${owner}${subject}`;
  return { kind: "attribute", lang: "zh", key, subject: key, determiner: "my", plural: false };
}

const QUESTION_PATTERNS: QuestionPattern[] = [
  // What is my code word? / What's the wifi password? / What were my favourite colours again?
  {
    re: new RegExp(
      String.raw`^${EN_LEAD}what(?:'s|’s|\s+(is|was|are|were))\s+(my|the|our)\s+${EN_SUBJECT}${EN_END}`,
      "iu",
    ),
    toQuestion: (m) => englishAttribute(m[2] ?? "", m[3] ?? "", m[1]),
  },
  // Do you know my code word? / Do you remember what my code word is? / Can you tell me my code word?
  {
    re: new RegExp(
      String.raw`^${EN_LEAD}(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:know|remember|recall|tell\s+me)\s+(?:what\s+)?(my|the|our)\s+${EN_SUBJECT}(?:\s+(?:is|was))?${EN_END}`,
      "iu",
    ),
    toQuestion: (m) => englishAttribute(m[1] ?? "", m[2] ?? ""),
  },
  // Tell me my code word. / Remind me of my code word.
  {
    re: new RegExp(
      String.raw`^${EN_LEAD}(?:tell\s+me|remind\s+me\s+of)\s+(my|our)\s+${EN_SUBJECT}${EN_END}`,
      "iu",
    ),
    toQuestion: (m) => englishAttribute(m[1] ?? "", m[2] ?? ""),
  },
  // What do I like? / What did I say I love? / Do you know what I like?
  {
    re: new RegExp(
      String.raw`^${EN_LEAD}(?:(?:do|did|can)\s+you\s+(?:still\s+)?(?:know|remember|recall)\s+)?what\s+(?:things\s+)?(?:do\s+|did\s+)?(?:i\s+(?:say|said|tell\s+you)\s+)?i\s+(?:really\s+)?(?:like|love|enjoy|adore)${EN_END}`,
      "iu",
    ),
    toQuestion: () => ({ kind: "like", lang: "en" }),
  },
  // 我的暗号是什么？ / 我最喜欢的颜色是啥 / 我的电话号码是多少
  {
    re: new RegExp(`^${ZH_LEAD}我${ZH_OWNER}${ZH_SUBJECT}是(?:什么|啥|多少|哪个|哪一个|谁)${ZH_END}`, "u"),
    toQuestion: (m) => chineseAttribute(m[1] ?? "", m[2] ?? ""),
  },
  // 你知道我的暗号吗？ / 你还记得我的暗号是什么吗
  {
    re: new RegExp(
      `^${ZH_LEAD}你(?:还)?(?:知道|记得)我${ZH_OWNER}${ZH_SUBJECT}(?:是(?:什么|啥|多少))?吗[？?。！!]*$`,
      "u",
    ),
    toQuestion: (m) => chineseAttribute(m[1] ?? "", m[2] ?? ""),
  },
  // 我喜欢什么？ / 你知道我喜欢什么吗
  {
    re: new RegExp(
      `^${ZH_LEAD}(?:你(?:还)?(?:知道|记得))?我(?:最)?(?:喜欢|爱)(?:什么|啥)(?:东西)?(?:来着)?[呢呀啊吗]?[？?。！!]*$`,
      "u",
    ),
    toQuestion: () => ({ kind: "like", lang: "zh" }),
  },
];

function parseClauseQuestion(clause: string): FactQuestion | null {
  for (const { re, toQuestion } of QUESTION_PATTERNS) {
    const m = re.exec(clause);
    const question = m ? toQuestion(m) : null;
    if (question) return question;
  }
  return null;
}

/** The sentence, or the part after one of its commas, as a question ("Thanks, what is my code word?"). */
function parseSentenceQuestion(sentence: string): FactQuestion | null {
  const question = parseClauseQuestion(sentence);
  if (question) return question;
  for (const comma of sentence.matchAll(/[,，]/g)) {
    const tail = parseClauseQuestion(sentence.slice((comma.index ?? 0) + 1).trim());
    if (tail) return tail;
  }
  return null;
}

/** The fact the text asks about (its last question sentence wins), or null. */
export function parseFactQuestion(text: string): FactQuestion | null {
  const sentences = splitSentences(text);
  for (let i = sentences.length - 1; i >= 0; i--) {
    const question = parseSentenceQuestion(sentences[i] ?? "");
    if (question) return question;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------------------

interface StatementPattern {
  /** Global; matches the head of a statement. The value is read from the rest of the sentence. */
  head: RegExp;
  toFact: (m: RegExpMatchArray, rest: string) => Fact | null;
}

// Where an English value stops: a comma or semicolon, or a new clause ("…, and I …", "… but my …").
const EN_VALUE_END =
  /[,;，；]|\s+(?:and|but|so|because|though|although|while)\s+(?:i|i'm|my|we|you|it|that|this|the)\b/i;
const EN_VALUE_TAIL = /\s+(?:now|too|as well|again)$/i;
// A Chinese value stops at a comma; sentence particles at its end are not part of it.
const ZH_VALUE_END = /[，,；;]/;
const ZH_VALUE_TAIL = /(?<=.)[了啦呀哦吧]$/u;
const LIKE_VERBS: Record<string, LikeVerb> = { like: "like", love: "love", enjoy: "enjoy", adore: "adore" };

function englishValue(rest: string): string {
  const end = EN_VALUE_END.exec(rest);
  return cleanValue(cleanValue(end ? rest.slice(0, end.index) : rest).replace(EN_VALUE_TAIL, ""));
}

function chineseValue(rest: string): string {
  const end = ZH_VALUE_END.exec(rest);
  return cleanValue(cleanValue(end ? rest.slice(0, end.index) : rest).replace(ZH_VALUE_TAIL, ""));
}

function attribute(lang: FactLang, key: string | null, value: string): Fact | null {
  return key && value ? { kind: "attribute", lang, key, value } : null;
}

function like(lang: FactLang, verb: LikeVerb, value: string): Fact | null {
  return value ? { kind: "like", lang, verb, value } : null;
}

const NOW = String.raw`(?:now\s+|still\s+|actually\s+|currently\s+)?`;

const STATEMENT_PATTERNS: StatementPattern[] = [
  // My code word is X. / …, and my favourite colour is now amber.
  {
    head: new RegExp(String.raw`\bmy\s+${EN_SUBJECT}\s+(?:is|are|was)\s+${NOW}`, "giu"),
    toFact: (m, rest) => attribute("en", normaliseSubject(m[1] ?? ""), englishValue(rest)),
  },
  // The wifi password is X. / Code word is X. (Only at the start of a sentence; "my …" is the pattern above.)
  {
    head: new RegExp(
      String.raw`^${EN_LEAD}(?!my\b)(?:(?:the|our)\s+)?${EN_SUBJECT}\s+(?:is|are)\s+${NOW}`,
      "giu",
    ),
    toFact: (m, rest) => attribute("en", normaliseSubject(m[1] ?? ""), englishValue(rest)),
  },
  // I like X. / I really love X.
  {
    head: /(?<!\b(?:what|how\s+much)\s+)\bi\s+(?:really\s+|also\s+|just\s+|totally\s+|absolutely\s+|do\s+)?(like|love|enjoy|adore)\s+/giu,
    toFact: (m, rest) => like("en", LIKE_VERBS[(m[1] ?? "").toLowerCase()] ?? "like", englishValue(rest)),
  },
  // 我的暗号是X / 我最喜欢的颜色现在是X / 我的暗号改成了X / 我的猫叫咪咪
  {
    head: new RegExp(
      `我${ZH_OWNER}${ZH_SUBJECT}(?:现在|如今|已经)?(?:是|改成了?|换成了?|变成了?|改为|叫做?)`,
      "gu",
    ),
    toFact: (m, rest) => attribute("zh", `${m[1] ?? ""}${m[2] ?? ""}`, chineseValue(rest)),
  },
  // 我喜欢X / 我也很爱X (not 我喜欢的…, which is an attribute, nor 我不喜欢…)
  {
    head: /我(?:也|还|很|真|超|最|非常|特别|真的|一直)*(喜欢|爱)(?!的|什么|啥)/gu,
    toFact: (m, rest) => like("zh", m[1] === "爱" ? "love" : "like", chineseValue(rest)),
  },
];

// A sentence that asks is never a statement ("Do you know if my flight is late?", "我的暗号是啥").
function isQuestionSentence(sentence: string): boolean {
  return /[?？]$|[吗呢嘛][。.]?$/u.test(sentence) || parseSentenceQuestion(sentence) !== null;
}

function sentenceFacts(sentence: string): Fact[] {
  const found: { at: number; fact: Fact }[] = [];
  for (const { head, toFact } of STATEMENT_PATTERNS) {
    for (const m of sentence.matchAll(head)) {
      const at = m.index ?? 0;
      const fact = toFact(m, sentence.slice(at + m[0].length));
      if (fact) found.push({ at, fact });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.fact);
}

/** The facts a text states, in the order it states them. */
export function extractFacts(text: string): Fact[] {
  return splitSentences(text)
    .filter((sentence) => !isQuestionSentence(sentence))
    .flatMap(sentenceFacts);
}

// ---------------------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------------------

/** The newest statement of the asked attribute: later messages win, and later sentences within one. */
function latestAttribute(key: string, newestFirst: ReadonlyArray<string>): string | null {
  for (const text of newestFirst) {
    const facts = extractFacts(text).filter((f) => f.kind === "attribute" && f.key === key);
    const last = facts[facts.length - 1];
    if (last) return last.value;
  }
  return null;
}

/** Every distinct like, oldest first, the most recent MAX_LIKES of them. */
function allLikes(newestFirst: ReadonlyArray<string>): Extract<Fact, { kind: "like" }>[] {
  const byValue = new Map<string, Extract<Fact, { kind: "like" }>>();
  for (const text of [...newestFirst].reverse()) {
    for (const fact of extractFacts(text)) {
      if (fact.kind !== "like") continue;
      const id = fact.value.toLowerCase();
      byValue.delete(id);
      byValue.set(id, fact);
    }
  }
  return [...byValue.values()].slice(-MAX_LIKES);
}

function joinEnglish(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

const ZH_VERB: Record<LikeVerb, string> = { like: "喜欢", love: "爱", enjoy: "喜欢", adore: "爱" };

function likesAnswer(lang: FactLang, likes: Extract<Fact, { kind: "like" }>[]): string {
  if (lang === "zh") return `你${likes.map((l) => `${ZH_VERB[l.verb]}${l.value}`).join("，也")}。`;
  return `You ${joinEnglish(likes.map((l) => `${l.verb} ${l.value}`))}.`;
}

function attributeAnswer(q: Extract<FactQuestion, { kind: "attribute" }>, value: string): string {
  if (q.lang === "zh") return `你${q.subject}是${value}。`;
  const owner = q.determiner === "my" ? "Your" : q.determiner === "our" ? "Our" : "The";
  return `${owner} ${q.subject} ${q.plural ? "are" : "is"} ${value}.`;
}

/**
 * Answers `question` from `newestFirst` (earlier user messages, newest first), or null when they do not
 * state it.
 */
export function recallFact(question: FactQuestion, newestFirst: ReadonlyArray<string>): string | null {
  if (question.kind === "like") {
    const likes = allLikes(newestFirst);
    return likes.length > 0 ? likesAnswer(question.lang, likes) : null;
  }
  const value = latestAttribute(question.key, newestFirst);
  return value === null ? null : attributeAnswer(question, value);
}

/** Whether not finding the fact means "I don't know" (a question about the user, not about "the X"). */
export function isPersonalQuestion(question: FactQuestion): boolean {
  return question.kind === "like" || question.determiner !== "the";
}

export function unknownFact(question: FactQuestion): string {
  if (question.kind === "like") {
    return question.lang === "zh"
      ? "我不知道你喜欢什么——你在这段对话里没有告诉过我。"
      : "I don't know what you like — you haven't told me in this conversation.";
  }
  if (question.lang === "zh") return `我不知道你${question.subject}——你在这段对话里没有告诉过我。`;
  const owner = question.determiner === "our" ? "our" : question.determiner === "the" ? "the" : "your";
  return `I don't know ${owner} ${question.subject} — you haven't told me in this conversation.`;
}
