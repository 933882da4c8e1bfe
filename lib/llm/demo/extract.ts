import { EXTRACTION_INSTRUCTIONS, EXTRACTION_MESSAGE_HEAD } from "../extraction-instructions";
import { clip, type DemoMessage, splitSentences } from "./text";

// Extraction requests (lib/chat/extraction.ts): recognized by the first line of their instructions, as a real model
// reads them, and answered in JSON from the message they hold — "my X is Y", "I am/I'm …", "I live in …",
// "I like/love/prefer …" and 我的X是Y, 我是…, 我住在…, 我喜欢/爱…, clause by clause, in the user's own words.

const EXTRACTION_MARK = EXTRACTION_INSTRUCTIONS.split("\n")[0] ?? "";
const LEAD = String.raw`^(?:(?:so|ok|okay|and|also|btw|oh|well|hey|hi|hello|actually|by the way)\b[\s,]*)*`;
const re = (body: string) => new RegExp(`${LEAD}${body}$`, "iu");
/** Words after "I am" that make a remark about the moment, not a fact ("I'm not sure", "I'm looking for …"). */
const NOT_A_STATE =
  /^(?:not|sorry|sure|just|going|gonna|trying|looking|wondering|asking|thinking|here|back|fine|ok|okay|good|glad|happy to|afraid|done|curious|confused|a bit|so|very|really|still|about|ready|able|unable|new here)\b/i;

const ENGLISH: RegExp[] = [
  re(String.raw`(my\s+[\p{L}\p{N}'’ -]{1,40}?\s+(?:is|are)\s+.+)`),
  re(String.raw`((?:i\s+am|i'm|i’m)\s+(.+))`),
  re(String.raw`(i\s+(?:now\s+|currently\s+)?live\s+in\s+.+)`),
  re(String.raw`(i\s+(?:really\s+|also\s+|do\s+)?(?:like|love|prefer|enjoy)\s+.+)`),
];
const CHINESE: RegExp[] = [
  /^(我的[^，。！？]{1,12}?是.+)$/u,
  /^(我住在.+)$/u,
  /^(我(?:也|还|很|非常|特别|最)*(?:喜欢|爱).+)$/u,
  /^(我是.+)$/u,
];

export const isExtractionRequest = (messages: readonly DemoMessage[]) =>
  messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(EXTRACTION_MARK));

const asks = (sentence: string) => /[?？]\s*$|[吗呢嘛][。.]?\s*$/u.test(sentence);
const capital = (s: string) => (s[0]?.toUpperCase() ?? "") + s.slice(1);

function clauseFact(clause: string): string | null {
  const text = clause.replace(/[\s.,!;:。！，；：]+$/u, "").trim();
  for (const pattern of ENGLISH) {
    const m = pattern.exec(text);
    if (!m?.[1] || (m[2] !== undefined && NOT_A_STATE.test(m[2]))) continue;
    if (/\bremember\b/i.test(m[1])) continue;
    return capital(clip(m[1], 120));
  }
  for (const pattern of CHINESE) {
    const m = pattern.exec(text.replace(/^(?:对了|还有|另外|而且)[，,\s]*/u, ""));
    if (m?.[1]) return clip(m[1], 120);
  }
  return null;
}

/** The facts a message states, in order, each once. */
export function statedFacts(message: string): string[] {
  const facts = splitSentences(message)
    .filter((sentence) => !asks(sentence))
    .flatMap((sentence) =>
      sentence.split(/[,;，；]|\s+(?:and|but)\s+(?=(?:i|i'm|i’m|my)\b)|(?:而且|并且|还有)/iu),
    )
    .map(clauseFact)
    .filter((f): f is string => f !== null);
  return [...new Set(facts)];
}

/** The offline model's answer to an extraction request: `{"facts":[{"text":…}]}` of the message it holds. */
export function writeExtraction(messages: readonly DemoMessage[]): string {
  const text = messages.findLast((m) => m.role === "user")?.text ?? "";
  const message = text.startsWith(EXTRACTION_MESSAGE_HEAD)
    ? text.slice(EXTRACTION_MESSAGE_HEAD.length)
    : text;
  return JSON.stringify({ facts: statedFacts(message).map((f) => ({ text: f })) });
}
