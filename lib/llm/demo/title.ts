// Conversation titles. A title request (lib/chat/auto-title.ts) is recognized by the first line of its instructions,
// as a real model reads them, and answered from the text it was sent: the question's first sentence without
// greetings and "could you", cut to six words, with no dangling little word at the end.

/** The stable start of `TITLE_INSTRUCTIONS`' first line: a system message opening with it asks for a title. */
export const TITLE_REQUEST_MARK = "You name conversations";

/** The headings of a title request's user message: "Question:\n<text>\n\nAnswer:\n<text>". */
export const TITLE_QUESTION_HEAD = "Question:\n";
export const TITLE_ANSWER_HEAD = "Answer:\n";

/** A title has at most this many words. */
export const TITLE_MAX_WORDS = 6;
/** …and at most this many characters (for scripts without spaces between words). */
export const TITLE_MAX_CHARS = 60;

interface Message {
  role: string;
  text: string;
}

/** Whether the request asks for a title: a system message whose first line is the title instructions'. */
export function isTitleRequest(messages: ReadonlyArray<Message>): boolean {
  return messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(TITLE_REQUEST_MARK));
}

/** The question and answer a title request holds (its last user message; either may be empty). */
export function titleRequestParts(messages: ReadonlyArray<Message>): { question: string; answer: string } {
  const text = messages.findLast((m) => m.role === "user")?.text ?? "";
  const answerAt = text.indexOf(`\n\n${TITLE_ANSWER_HEAD}`);
  const head = answerAt < 0 ? text : text.slice(0, answerAt);
  const answer = answerAt < 0 ? "" : text.slice(answerAt + 2 + TITLE_ANSWER_HEAD.length);
  const question = head.startsWith(TITLE_QUESTION_HEAD) ? head.slice(TITLE_QUESTION_HEAD.length) : head;
  return { question: question.trim(), answer: answer.trim() };
}

const OPENERS = [
  /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b[\s,!.:;-]*/i,
  /^(?:please|pls|kindly)\b[\s,]*/i,
  /^(?:can|could|would|will) you(?: please)?\b[\s,]*/i,
  /^(?:i (?:want|would like|need) you to)\b\s*/i,
];

/** Little words a title does not end on ("Explain how binary search works on" → "…works"). */
const DANGLING = new Set(
  "a an the of on in to for with and or but at by from about into as is are was my your our their this that".split(
    " ",
  ),
);

/** The first sentence of a text's first line, without markdown markers, greetings and politeness. */
function firstSentence(text: string): string {
  let line =
    text
      .split("\n")
      .map((l) => l.replace(/^\s*(?:#+|[-*•>]|\d+[.)])\s+/, "").trim())
      .find((l) => l.length > 0) ?? "";
  for (let changed = true; changed; ) {
    changed = false;
    for (const opener of OPENERS) {
      const next = line.replace(opener, "");
      if (next !== line && next.trim()) {
        line = next.trim();
        changed = true;
      }
    }
  }
  // A sentence ends at . ! ? (or their full-width forms) followed by a space or the end.
  const end = /[.!?](?=\s|$)|[。！？]/.exec(line);
  return (end ? line.slice(0, end.index) : line).replace(/[`*_"“”]/g, "").trim();
}

/**
 * A short title for a text: its first sentence without greetings and politeness, at most six words (never ending
 * on a little word like "on" or "the") and 60 characters, first letter capitalized. Blank when the text has no
 * words.
 */
export function titleOf(text: string): string {
  const sentence = firstSentence(text);
  const words = sentence
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean)
    .slice(0, TITLE_MAX_WORDS);
  while (words.length > 1 && DANGLING.has((words.at(-1) ?? "").toLowerCase())) words.pop();
  let title = words.join(" ");
  if (title.length > TITLE_MAX_CHARS) title = `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
  return title ? title.charAt(0).toUpperCase() + title.slice(1) : "";
}

/** The offline model's answer to a title request: a title of the question, else of the answer; blank if neither. */
export function writeTitle(messages: ReadonlyArray<Message>): string {
  const { question, answer } = titleRequestParts(messages);
  return titleOf(question) || titleOf(answer);
}
