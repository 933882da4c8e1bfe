import { toolCommand } from "../tool-command";
import type { WireAnswer, WireRequest } from "../wire";
import { attachmentReply } from "./attachments";
import { isExtractionRequest, writeExtraction } from "./extract";
import { extractFacts, parseFactQuestion, recallFact, unknownFact } from "./facts";
import { isRecallQuestion, parseRememberRequest } from "./remember";
import { isSummaryRequest, writeSummary } from "./summary";
import { clip, currentIndex, type DemoMessage, isChinese, plural, sectionContents, unquote } from "./text";
import { isTitleRequest, writeTitle } from "./title";
import { aboutMe, demoToolStep } from "./tools";

// The demo model (docs/decisions/003-offline-model.md): what a newcomer meets in `npm run demo` without a provider
// key. Deterministic and memory-honest: a pure function of the request, so what it recalls is what the app sent.
// What the user said earlier is only what the request holds: the earlier user messages, the user's messages a
// section recalls from older history, the "User: …" lines of summaries, and the notes ("- …" lines) of the system's
// sections; never the system prompt, an assistant's words or the question itself.

export const DEMO_MODEL_NAME = "recall-offline";

const NAME = /\bmy\s+name\s+is\s+([^\n,.!?;:。！？]+)/i;
const FIRST =
  /\bwhat\s+did\s+i\s+(?:say|ask|write)\s+(?:first|at\s+the\s+(?:start|beginning))\b|\bwhat\s+was\s+my\s+first\s+(?:message|question)\b/i;
const PREVIOUS =
  /\bwhat\s+did\s+i\s+(?:just\s+)?(?:say|ask|write)\s+(?:earlier|before|previously|last)\b|\bwhat\s+was\s+my\s+(?:last|previous)\s+(?:message|question)\b/i;

const RECAP =
  /\bsummari[sz]e\s+(?:what\s+we(?:'ve|\s+have)?\s+(?:talked|spoken|chatted|discussed)|(?:our|this|the)\s+conversation)\b|总结一下?我们.*(?:聊|谈|说)/i;

/** "Summarise what we have talked about": the user's messages the request holds, oldest first, and nothing else. */
function recap(question: string, said: readonly string[]): string {
  const zh = isChinese(question);
  if (said.length === 0)
    return zh
      ? "我们还没有聊过什么：这段对话里我看不到你之前的消息。"
      : "We haven't talked about anything yet — I can't see any earlier message from you in this conversation.";
  const list = said.map((s) => `- ${clip(s, 120)}`).join("\n");
  return zh ? `到目前为止你说了：\n${list}` : `So far you said:\n${list}`;
}

/** "Count to 800": a long answer of a known length (one token per number), what the streaming benchmark asks for. */
const COUNT = /^\s*count\s+to\s+(\d{1,4})\b/i;
const MAX_COUNT = 2000;

function count(question: string): string | null {
  const n = Math.min(Number(COUNT.exec(question)?.[1] ?? 0), MAX_COUNT);
  return n > 0 ? Array.from({ length: n }, (_, i) => i + 1).join(" ") : null;
}

const ZH_NAME = /(?:我叫|我的名字是)\s*([^\s，,。！？!?；;]+)/u;

function findName(text: string): string | null {
  const said = NAME.exec(text)?.[1]?.split(/\s+(?:and|but|so)\s+/i)[0] ?? "";
  const name = unquote(said.replace(/^now\s+/i, ""));
  return name ? clip(name, 60) : null;
}

/** What a sentence states, as keys for a summary's "latest wins"; [] when nothing worth keeping. */
function statedSubjects(sentence: string): string[] {
  const request = parseRememberRequest(sentence);
  const keys = extractFacts(sentence).map((f) => `${f.lang}:${f.key}`);
  return request ? [...keys, `remember:${request.kind}:${request.value.toLowerCase()}`] : keys;
}

const userTexts = (messages: readonly DemoMessage[]) =>
  messages.flatMap((m) => (m.role === "user" ? [m.text] : []));

/**
 * The question, the earlier user messages of the request and all the user is known to have said, newest first; and
 * what the user said in this conversation, oldest first.
 */
type Turn = { question: string; earlier: string[]; stated: string[]; story: string[] };

const quoted = (said: string | undefined, found: string) =>
  said === undefined
    ? "I don't know — I can't see any earlier message from you in this conversation."
    : `${found}: "${clip(said, 80)}"`;

/** The reply rules, in order: the first that answers wins. */
const RULES: ((t: Turn) => string | false | null | undefined)[] = [
  ({ question }) => count(question),
  (t) => FIRST.test(t.question) && quoted(t.earlier.at(-1), "The first message of yours that I can see is"),
  (t) => PREVIOUS.test(t.question) && quoted(t.earlier[0], "Your previous message was"),
  (t) => RECAP.test(t.question) && recap(t.question, t.story),
  ({ question, stated }) => {
    const q = parseFactQuestion(question);
    return q && recallFact(q, stated);
  },
  ({ question, stated }) => {
    const request = isRecallQuestion(question) ? stated.map(parseRememberRequest).find(Boolean) : null;
    if (!request) return null;
    return request.kind === "fact"
      ? `You asked me to remember that ${request.value}.`
      : `The phrase you asked me to remember is ${request.value}.`;
  },
  ({ question }) => {
    const q = parseFactQuestion(question);
    return q && unknownFact(q);
  },
  ({ question }) =>
    isRecallQuestion(question) &&
    "I don't know — nothing in this conversation asked me to remember a phrase.",
  ({ question }) => {
    const request = parseRememberRequest(question);
    return request && (request.replyOnlyNoted ? "noted" : `Noted — I'll remember: ${request.value}.`);
  },
  ({ question }) => {
    const name = findName(question);
    return name && `Nice to meet you, ${name}.`;
  },
  ({ question }) => {
    const name = ZH_NAME.exec(question)?.[1]?.trim();
    return name && `很高兴认识你，${clip(name, 60)}。`;
  },
];

/** The demo model's text reply: a pure function of the messages it was sent. */
export function demoReply(messages: readonly DemoMessage[]): string {
  if (isTitleRequest(messages)) return writeTitle(messages);
  if (isExtractionRequest(messages)) return writeExtraction(messages);
  if (isSummaryRequest(messages)) {
    return writeSummary(userTexts(messages), statedSubjects);
  }
  const known = aboutMe(messages);
  if (known) return known;
  const at = currentIndex(messages);
  const question = messages[at]?.text ?? "";
  const before = at >= 0 ? messages.slice(0, at) : messages;
  const earlier = userTexts(before).reverse();
  const { notes, summarized, recalled } = sectionContents(messages);
  // This conversation as the request holds it, oldest first: its summary's "User:" lines, then the messages.
  const story = [...summarized, ...[...earlier].reverse()];
  const stated = [...earlier, ...userTexts(recalled).reverse(), ...summarized.reverse(), ...notes];
  const turn = { question, earlier, stated, story };
  for (const rule of RULES) {
    const reply = rule(turn);
    if (reply) return reply;
  }
  const seen = before.filter((m) => m.role !== "system").length;
  return `Offline model reply to: "${clip(question, 80)}" (I saw ${plural(seen, "earlier message")}.)`;
}

export function demoAnswer(request: WireRequest): WireAnswer {
  const { messages } = request;
  const task = isSummaryRequest(messages) || isTitleRequest(messages) || isExtractionRequest(messages);
  const step = task ? null : (toolCommand(request) ?? demoToolStep(messages, request.tools));
  if (step && "calls" in step) return step;
  const reply = step?.reply ?? demoReply(messages);
  return { reply: task ? reply : attachmentReply(messages, reply) };
}
