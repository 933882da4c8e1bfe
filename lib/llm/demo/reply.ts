import { extractFacts, parseFactQuestion, recallFact, unknownFact } from "./facts";
import { isRecallQuestion, parseRememberRequest } from "./remember";
import { isSummaryRequest, summaryStatements, writeSummary } from "./summary";
import { clip, currentIndex, type DemoMessage, sectionContents, unquote } from "./text";
import { isTitleRequest, writeTitle } from "./title";
import { aboutMe } from "./tools";

// The demo model's text reply: a pure function of the messages it was sent. What the user said earlier is only
// what the request holds: the earlier user messages, the user's messages a section recalls from older history, the
// "User: …" lines of summaries, and the notes ("- …" lines) of the system's sections; never the system prompt, an
// assistant's words or the question itself.

const NAME_QUESTION =
  /\b(?:what(?:'s|’s|\s+is|\s+was)\s+my\s+name|(?:do|did|can)\s+you\s+(?:know|remember|recall)\s+my\s+name|who\s+am\s+i)\b/i;
const NAME = /\bmy\s+name\s+is\s+([^\n,.!?;:。！？]+)/i;
const FIRST =
  /\bwhat\s+did\s+i\s+(?:say|ask|write)\s+(?:first|at\s+the\s+(?:start|beginning))\b|\bwhat\s+was\s+my\s+first\s+(?:message|question)\b/i;
const PREVIOUS =
  /\bwhat\s+did\s+i\s+(?:just\s+)?(?:say|ask|write)\s+(?:earlier|before|previously|last)\b|\bwhat\s+was\s+my\s+(?:last|previous)\s+(?:message|question)\b/i;

function findName(text: string): string | null {
  const m = NAME.exec(text);
  const name = unquote(m?.[1]?.split(/\s+(?:and|but|so)\s+/i)[0]?.replace(/^now\s+/i, "") ?? "");
  return name ? clip(name, 60) : null;
}

/** What a sentence states, as keys for a summary's "latest wins"; [] when nothing worth keeping. */
function statedSubjects(sentence: string): string[] {
  const keys = extractFacts(sentence).map((f) =>
    f.kind === "attribute" ? `attribute:${f.lang}:${f.key}` : `like:${f.value.toLowerCase()}`,
  );
  const request = parseRememberRequest(sentence);
  if (request) keys.push(`remember:${request.kind}:${request.value.toLowerCase()}`);
  return keys;
}

export function demoReply(messages: readonly DemoMessage[]): string {
  if (isTitleRequest(messages)) return writeTitle(messages);
  if (isSummaryRequest(messages)) {
    return writeSummary(
      messages.filter((m) => m.role === "user").map((m) => m.text),
      statedSubjects,
    );
  }
  const known = aboutMe(messages);
  if (known) return known;
  const at = currentIndex(messages);
  const question = messages[at]?.text ?? "";
  const earlier = at >= 0 ? messages.slice(0, at) : messages;
  const earlierUser = earlier
    .filter((m) => m.role === "user")
    .map((m) => m.text)
    .reverse();
  const { notes, recalled } = sectionContents(messages);
  const recalledUser = recalled.filter((m) => m.role === "user").map((m) => m.text);
  // Newest first: the earlier user messages, the user's messages recalled from older history, what summaries say
  // they said, then the system's notes.
  const stated = [
    ...earlierUser,
    ...recalledUser.reverse(),
    ...summaryStatements(messages).reverse(),
    ...notes,
  ];

  if (NAME_QUESTION.test(question)) {
    const name = stated.map(findName).find(Boolean);
    return name
      ? `Your name is ${name}.`
      : "I don't know your name — you haven't told me in this conversation.";
  }
  if (FIRST.test(question) || PREVIOUS.test(question)) {
    const first = FIRST.test(question);
    const said = first ? earlierUser.at(-1) : earlierUser[0];
    if (said === undefined)
      return "I don't know — I can't see any earlier message from you in this conversation.";
    return first
      ? `The first message of yours that I can see is: "${clip(said, 80)}"`
      : `Your previous message was: "${clip(said, 80)}"`;
  }
  const factQuestion = parseFactQuestion(question);
  const fact = factQuestion && recallFact(factQuestion, stated);
  if (fact) return fact;
  if (isRecallQuestion(question)) {
    const request = stated.map(parseRememberRequest).find(Boolean);
    if (request) {
      return request.kind === "fact"
        ? `You asked me to remember that ${request.value}.`
        : `The phrase you asked me to remember is ${request.value}.`;
    }
  }
  const unknown = factQuestion && unknownFact(factQuestion);
  if (unknown) return unknown;
  if (isRecallQuestion(question))
    return "I don't know — nothing in this conversation asked me to remember a phrase.";
  const request = parseRememberRequest(question);
  if (request) return request.replyOnlyNoted ? "noted" : `Noted — I'll remember: ${request.value}.`;
  const name = findName(question);
  if (name) return `Nice to meet you, ${name}.`;
  const seen = earlier.filter((m) => m.role !== "system").length;
  return `Offline model reply to: "${clip(question, 80)}" (I saw ${seen} earlier ${seen === 1 ? "message" : "messages"}.)`;
}
