// The offline model's running summaries (docs/decisions/003-offline-model.md). It recognizes a summary request
// (lib/llm/summarize.ts) by the first line of its instructions, answers it with the user's fact-stating sentences,
// verbatim, one per line as "User: …" (the newest statement of a subject replaces older ones), and reads a
// summary it is sent back as a source of user statements. Pure and deterministic; what is worth keeping is
// decided by the caller (`subjectsOf`), so this module knows only the text formats.

import { SUMMARY_PREFIX } from "@/lib/memory";
import { splitSentences } from "./offline-facts";

/** The stable start of `SUMMARY_INSTRUCTIONS`' first line: a system message opening with it asks for a summary. */
export const SUMMARY_REQUEST_MARK = "You maintain the running summary of a conversation";

/** At most this many statements are kept (the newest), so a summary stays bounded however long the chat. */
export const MAX_SUMMARY_STATEMENTS = 40;

interface Message {
  role: string;
  text: string;
}

/** Whether the request asks for a summary: a system message whose first line is the summary instructions'. */
export function isSummaryRequest(messages: ReadonlyArray<Message>): boolean {
  return messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(SUMMARY_REQUEST_MARK));
}

/** Whether a system message is a summary shown to the model (`SUMMARY_PREFIX` + the summary's text). */
export function isSummaryMessage(message: Message): boolean {
  return message.role === "system" && message.text.startsWith(SUMMARY_PREFIX);
}

const USER_LINE = /^\s*(?:[-*•]\s+)?User:[ \t]*(.*?)\s*$/;
const OTHER_THINGS = /^talked about (\d+) other things?\.$/;

/** The user statements a summary's text holds: its "User: …" lines, in order (the "other things" line excluded). */
export function summaryStatements(summary: string): string[] {
  const out: string[] = [];
  for (const line of summary.split("\n")) {
    const text = USER_LINE.exec(line)?.[1];
    if (text && !OTHER_THINGS.test(text)) out.push(text);
  }
  return out;
}

/** The user statements of every summary message sent, oldest first. */
export function statementsFromSummaries(messages: ReadonlyArray<Message>): string[] {
  return messages
    .filter(isSummaryMessage)
    .flatMap((m) => summaryStatements(m.text.slice(SUMMARY_PREFIX.length)));
}

// ---------------------------------------------------------------------------------------------------------
// Reading a summary request: "Previous summary:\n<text>\n\nMessages to add:\nUser: …\nAssistant: …".
// ---------------------------------------------------------------------------------------------------------

const PREVIOUS_HEAD = "Previous summary:\n";
const MESSAGES_HEAD = "Messages to add:\n";
const SPEAKER_LINE = /^(User|Assistant):[ \t]?(.*)$/;

interface RequestParts {
  previous: string;
  transcript: string;
}

function requestParts(text: string): RequestParts {
  if (text.startsWith(PREVIOUS_HEAD)) {
    const rest = text.slice(PREVIOUS_HEAD.length);
    // A summary the offline model wrote has no blank line, so the first heading is the right one.
    const at = rest.indexOf(`\n\n${MESSAGES_HEAD}`);
    return at < 0
      ? { previous: rest, transcript: "" }
      : { previous: rest.slice(0, at), transcript: rest.slice(at + 2 + MESSAGES_HEAD.length) };
  }
  if (text.startsWith(MESSAGES_HEAD)) return { previous: "", transcript: text.slice(MESSAGES_HEAD.length) };
  return { previous: "", transcript: text };
}

/** The user messages of a transcript, in order; a line without a speaker continues the message before it. */
function transcriptUserMessages(transcript: string): string[] {
  const messages: { user: boolean; lines: string[] }[] = [];
  for (const line of transcript.split("\n")) {
    const speaker = SPEAKER_LINE.exec(line);
    if (speaker) messages.push({ user: speaker[1] === "User", lines: [speaker[2] ?? ""] });
    else messages.at(-1)?.lines.push(line);
  }
  return messages.filter((m) => m.user).map((m) => m.lines.join("\n"));
}

/** The count in a previous summary's "User: talked about N other things." line (0 when there is none). */
function otherThings(previous: string): number {
  let n = 0;
  for (const line of previous.split("\n")) {
    const count = OTHER_THINGS.exec(USER_LINE.exec(line)?.[1] ?? "")?.[1];
    if (count) n += Number(count);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Writing the summary.
// ---------------------------------------------------------------------------------------------------------

interface Kept {
  sentence: string;
  /** The subjects this sentence is still the newest statement of. */
  live: Set<string>;
}

/**
 * The summary of a summary request's user texts. Every sentence of the previous summary's "User: …" lines and
 * of the new user messages that `subjectsOf` finds a subject in is kept verbatim, in order, as "User: <sentence>";
 * a sentence leaves once newer sentences have restated all of its subjects (latest wins). When nothing is kept,
 * one line counts the user messages: "User: talked about N other things." Blank only when there was no user
 * message at all.
 */
export function writeSummary(
  requestTexts: ReadonlyArray<string>,
  subjectsOf: (sentence: string) => string[],
): string {
  let kept: Kept[] = [];
  let others = 0;
  const keep = (text: string) => {
    let any = false;
    for (const sentence of splitSentences(text)) {
      const subjects = subjectsOf(sentence);
      if (subjects.length === 0) continue;
      any = true;
      for (const k of kept) for (const subject of subjects) k.live.delete(subject);
      kept = kept.filter((k) => k.live.size > 0);
      kept.push({ sentence, live: new Set(subjects) });
    }
    if (!any) others++;
  };
  for (const text of requestTexts) {
    const { previous, transcript } = requestParts(text);
    others += otherThings(previous);
    summaryStatements(previous).forEach(keep);
    transcriptUserMessages(transcript).forEach(keep);
  }
  if (kept.length > 0) {
    return kept
      .slice(-MAX_SUMMARY_STATEMENTS)
      .map((k) => `User: ${k.sentence}`)
      .join("\n");
  }
  // Every user message not kept was counted, so none counted means there was none.
  if (others === 0) return "";
  return `User: talked about ${others} other ${others === 1 ? "thing" : "things"}.`;
}
