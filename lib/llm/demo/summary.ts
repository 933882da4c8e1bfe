import { SUMMARY_INSTRUCTIONS } from "../summary-instructions";
import { isSection, splitSentences } from "./text";

// Running summaries: a summary request (recognized by its instructions' first line, as a model reads them) is
// answered with the user's fact-stating sentences, verbatim, one per line as "User: …"; the newest statement of a
// subject replaces older ones. Summaries sent back (sections, see isSection) are read by their "User: …"
// lines.

const SUMMARY_MARK = SUMMARY_INSTRUCTIONS.split("\n")[0] ?? "";
const MAX_SUMMARY_STATEMENTS = 40;

interface Message {
  role: string;
  text: string;
}

const USER_LINE = /^\s*(?:[-*•]\s+)?User:[ \t]*(.*?)\s*$/;
const OTHER_THINGS = /^talked about (\d+) other things?\.$/;
const SPEAKER = /^(User|Assistant):[ \t]?(.*)$/;

export const isSummaryRequest = (messages: readonly Message[]) =>
  messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(SUMMARY_MARK));

function userLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => USER_LINE.exec(line)?.[1] ?? "")
    .filter((s) => s && !OTHER_THINGS.test(s));
}

/** What summaries sent to the model say the user said: the "User: …" lines of the system's sections. */
export function summaryStatements(messages: readonly Message[]): string[] {
  return messages.filter(isSection).flatMap((m) => userLines(m.text));
}

/**
 * The summary of a request's user texts ("Previous summary:\n…\n\nMessages to add:\nUser: …\nAssistant: …"): the
 * sentences `subjectsOf` finds a subject in, oldest first, until newer ones restate all their subjects; else
 * "User: talked about N other things."; blank only when there was no user message at all.
 */
export function writeSummary(texts: readonly string[], subjectsOf: (sentence: string) => string[]): string {
  let kept: { sentence: string; live: Set<string> }[] = [];
  let others = 0;
  const keep = (message: string) => {
    let any = false;
    for (const sentence of splitSentences(message)) {
      const subjects = subjectsOf(sentence);
      if (subjects.length === 0) continue;
      any = true;
      for (const k of kept) for (const s of subjects) k.live.delete(s);
      kept = [...kept.filter((k) => k.live.size > 0), { sentence, live: new Set(subjects) }];
    }
    if (!any) others++;
  };
  for (const text of texts) {
    const previous = text.startsWith("Previous summary:\n")
      ? text.slice(18).split("\n\nMessages to add:\n")[0]
      : "";
    const at = text.indexOf("Messages to add:\n");
    const transcript = at < 0 ? (previous ? "" : text) : text.slice(at + 17);
    for (const line of (previous ?? "").split("\n")) {
      others += Number(OTHER_THINGS.exec(USER_LINE.exec(line)?.[1] ?? "")?.[1] ?? 0);
    }
    for (const line of userLines(previous ?? "")) keep(line);
    // A line without a speaker continues the message before it.
    const said: { user: boolean; lines: string[] }[] = [];
    for (const line of transcript.split("\n")) {
      const m = SPEAKER.exec(line);
      if (m) said.push({ user: m[1] === "User", lines: [m[2] ?? ""] });
      else said.at(-1)?.lines.push(line);
    }
    for (const m of said) if (m.user) keep(m.lines.join("\n"));
  }
  if (kept.length > 0) {
    return kept
      .slice(-MAX_SUMMARY_STATEMENTS)
      .map((k) => `User: ${k.sentence}`)
      .join("\n");
  }
  return others === 0 ? "" : `User: talked about ${others} other ${others === 1 ? "thing" : "things"}.`;
}
