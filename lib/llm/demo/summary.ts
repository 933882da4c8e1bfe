import { SUMMARY_INSTRUCTIONS } from "../summary-instructions";
import { type DemoMessage, OTHER_THINGS, plural, splitSentences, USER_LINE } from "./text";

// Running summaries: a summary request (recognized by its instructions' first line, as a model reads them) is
// answered with the user's fact-stating sentences, verbatim, one per line as "User: …"; the newest statement of a
// subject replaces older ones. Summaries sent back are read by their "User: …" lines (text.ts).

const SUMMARY_MARK = SUMMARY_INSTRUCTIONS.split("\n")[0] ?? "";
const MAX_SUMMARY_STATEMENTS = 40;
const SPEAKER = /^(User|Assistant):[ \t]?(.*)$/;

export const isSummaryRequest = (messages: readonly DemoMessage[]) =>
  messages.some((m) => m.role === "system" && m.text.trimStart().startsWith(SUMMARY_MARK));

/**
 * The summary of a request's user texts ("Previous summary:\n…\n\nMessages to add:\nUser: …\nAssistant: …"): the
 * sentences `subjectsOf` finds a subject in, oldest first, until newer ones restate all their subjects; else
 * "User: talked about N other things."; blank only when there was no user message at all.
 */
export function writeSummary(texts: readonly string[], subjectsOf: (sentence: string) => string[]): string {
  let kept: { sentence: string; live: Set<string> }[] = [];
  let others = 0;
  const keep = (message: string) => {
    const stating = splitSentences(message).filter((sentence) => {
      const subjects = subjectsOf(sentence);
      for (const k of kept) for (const s of subjects) k.live.delete(s);
      kept = kept.filter((k) => k.live.size > 0);
      if (subjects.length) kept.push({ sentence, live: new Set(subjects) });
      return subjects.length > 0;
    });
    if (stating.length === 0) others++;
  };
  for (const text of texts) {
    const previous = text.startsWith("Previous summary:\n")
      ? text.slice(18).split("\n\nMessages to add:\n")[0]
      : "";
    const at = text.indexOf("Messages to add:\n");
    const transcript = at < 0 ? (previous ? "" : text) : text.slice(at + 17);
    for (const line of (previous ?? "").split("\n")) {
      const said = USER_LINE.exec(line)?.[1] ?? "";
      const other = OTHER_THINGS.exec(said);
      if (other) others += Number(other[1]);
      else if (said) keep(said);
    }
    // A line without a speaker continues the message before it.
    const said: { user: boolean; lines: string[] }[] = [];
    for (const line of transcript.split("\n")) {
      const m = SPEAKER.exec(line);
      if (m) said.push({ user: m[1] === "User", lines: [m[2] ?? ""] });
      else said.at(-1)?.lines.push(line);
    }
    for (const m of said) if (m.user) keep(m.lines.join("\n"));
  }
  if (kept.length > 0)
    return kept
      .map((k) => `User: ${k.sentence}`)
      .slice(-MAX_SUMMARY_STATEMENTS)
      .join("\n");
  return others === 0 ? "" : `User: talked about ${plural(others, "other thing")}.`;
}
