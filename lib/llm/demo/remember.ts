import { leadingQuote, unquote } from "./text";

// "Remember the phrase X (and reply only 'noted')", "Remember that X" and the questions that ask for it back.

interface RememberRequest {
  /** "phrase": remember the phrase X; "fact": remember that X. */
  kind: "phrase" | "fact";
  value: string;
  replyOnlyNoted: boolean;
}

const RECALL_QUESTION = [
  /\bwhat(?:'s|’s|\s+(?:was|is|were))\s+(?:the|that|my|our)\s+(?:secret\s+|magic\s+)?(?:phrase|word|code\s*word|code|password|passphrase|number|secret|key|token)s?\b(?!\s+(?:for|in|of)\b)/i,
  /\bwhat\s+(?:phrase|word|code|password|passphrase|number|secret|thing)s?\s+(?:did|do|have|had)\s+(?:i|we)\b/i,
  /\bwhat\s+(?:did|do|have|had)\s+(?:i|we)\s+(?:ask|asked|tell|told|want|wanted|say|said)\b[^?.!]*\bremember/i,
  /\bwhat\s+(?:were|are|should|must)\s+you\s+(?:supposed\s+|meant\s+|asked\s+)?(?:to\s+)?remember\b/i,
  /\b(?:do|did|can|could)\s+you\s+(?:still\s+)?(?:remember|recall)\b/i,
  /\bremind\s+me\b[^?.!]*\b(?:phrase|word|code|password|remember)/i,
  /\b(?:i|we)\s+(?:asked|told|wanted)\s+you\s+to\s+remember\b/i,
  /\brecall\s+(?:the|that|my)\s+(?:phrase|word|code|password|passphrase|secret|number)\b/i,
];

// "remember" as an instruction — at the start of a sentence or after a polite lead-in — not "I can't remember".
const INSTRUCTION =
  /(?:^|[.!?:;,，。！？：；\n]\s*|\b(?:please|pls|kindly|and|also|now|then|just|(?:can|could|would|will)\s+you|i\s+(?:want|need)\s+you\s+to)\s+)remember\b[\s:：,]*/i;
const ONLY_NOTED =
  /\b(?:reply|respond|answer|say)\s+(?:only\s+|just\s+|with\s+|only\s+with\s+|just\s+with\s+)?["'“‘`]?noted\b/i;
const PHRASE_END =
  /\s+(?:and|then)\s+(?:reply|respond|answer|say|just|only|confirm|tell)\b|[,;，；]\s*(?:and\s+|then\s+)?(?:reply|respond|answer|say|please|confirm)\b|[.!?;。！？；](?=\s|$)|\n/i;
const WHAT =
  /^(?:(?:this|the|my|a|our|these|following)\s+)?(?:(?:secret\s+|magic\s+)?(?:phrase|word|code\s*word|code|password|passphrase|number|key|token|secret|string)s?\b\s*)?(?:is\b|[:：=])?\s*(?:following\s*)?[:：]?\s*/i;

export const isRecallQuestion = (text: string) => RECALL_QUESTION.some((re) => re.test(text));

/** Parses "remember the phrase X", "remember that X", "Remember: X"; null when the text asks nothing kept. */
export function parseRememberRequest(text: string): RememberRequest | null {
  if (isRecallQuestion(text)) return null;
  const m = INSTRUCTION.exec(text);
  if (!m) return null;
  let rest = text.slice(m.index + m[0].length);
  const that = /^that\s+/i.exec(rest);
  rest = that ? rest.slice(that[0].length) : rest.replace(WHAT, "");
  const end = PHRASE_END.exec(rest);
  const value = leadingQuote(rest) ?? unquote(end ? rest.slice(0, end.index) : rest);
  return value ? { kind: that ? "fact" : "phrase", value, replyOnlyNoted: ONLY_NOTED.test(text) } : null;
}
