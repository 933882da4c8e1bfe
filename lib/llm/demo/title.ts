import {
  TITLE_ANSWER_HEAD,
  TITLE_INSTRUCTIONS,
  TITLE_MAX_CHARS,
  TITLE_MAX_WORDS,
  TITLE_QUESTION_HEAD,
} from "../title-instructions";
import type { DemoMessage } from "./text";

// Conversation titles. A title request is recognized by the first line of its instructions, as a real model reads
// them, and answered from the text it was sent: the question's first sentence without greetings and "could you",
// cut to six words, with no dangling little word at the end.

const TITLE_MARK = TITLE_INSTRUCTIONS.split("\n")[0] ?? "";
const OPENERS =
  /^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))\b[\s,!.:;-]*|(?:please|pls|kindly)\b[\s,]*|(?:can|could|would|will) you(?: please)?\b[\s,]*|i (?:want|would like|need) you to\b\s*)/i;
/** Little words a title does not end on ("Explain how binary search works on" → "…works"). */
const DANGLING = new Set(
  "a an the of on in to for with and or but at by from about into as is are was my your our their this that".split(
    " ",
  ),
);

export const isTitleRequest = (messages: readonly DemoMessage[]) =>
  messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(TITLE_MARK));

/** The question and answer a title request holds (its last user message; either may be empty). */
export function titleRequestParts(messages: readonly DemoMessage[]): { question: string; answer: string } {
  const text = messages.findLast((m) => m.role === "user")?.text ?? "";
  const [head = "", ...rest] = text.split(`\n\n${TITLE_ANSWER_HEAD}`);
  const question = head.startsWith(TITLE_QUESTION_HEAD) ? head.slice(TITLE_QUESTION_HEAD.length) : head;
  return { question: question.trim(), answer: rest.join(`\n\n${TITLE_ANSWER_HEAD}`).trim() };
}

/**
 * A short title for a text: the first sentence of its first line without markdown markers, greetings and
 * politeness, at most six words (never ending on a little word like "on" or "the") and 60 characters, first letter
 * capitalized. Blank when the text has no words.
 */
export function titleOf(text: string): string {
  let line =
    text
      .split("\n")
      .map((l) => l.replace(/^\s*(?:#+|[-*•>]|\d+[.)])\s+/, "").trim())
      .find(Boolean) ?? "";
  for (
    let next = line.replace(OPENERS, "").trim();
    next && next !== line;
    next = line.replace(OPENERS, "").trim()
  )
    line = next;
  const end = /[.!?](?=\s|$)|[。！？]/.exec(line);
  const words = (end ? line.slice(0, end.index) : line)
    .replace(/[`*_"“”]/g, "")
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean)
    .slice(0, TITLE_MAX_WORDS);
  while (words.length > 1 && DANGLING.has((words.at(-1) ?? "").toLowerCase())) words.pop();
  let title = words.join(" ");
  if (title.length > TITLE_MAX_CHARS) title = `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
  return title.charAt(0).toUpperCase() + title.slice(1);
}

/** The offline model's answer to a title request: a title of the question, else of the answer; blank if neither. */
export function writeTitle(messages: readonly DemoMessage[]): string {
  const { question, answer } = titleRequestParts(messages);
  return titleOf(question) || titleOf(answer);
}
