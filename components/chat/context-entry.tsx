"use client";

import { useFormat, useT } from "@/lib/i18n/client";
import { type FactSent, FactsSent } from "./facts-sent";
import { formatCount, roleWord } from "./format";
import { describeSummary } from "./memory-words";

/** One entry of a turn's recorded context, as the context API returns it. */
export interface ContextEntryView {
  /** `recall`: the recalled-messages section itself; `recalled`: one message sent in it. */
  source:
    | "system"
    | "instructions"
    | "summary"
    | "fact"
    | "recall"
    | "recalled"
    | "file"
    | "history"
    | "current"
    | "tool";
  /** On an `instructions` entry: the user's own (settings) or this conversation's system prompt. */
  scope?: "user" | "project" | "conversation";
  role: string;
  seq?: number;
  chars?: number;
  tokens: number;
  preview: string;
  /** On a summary: the history range it covers, how many messages, its version, the model and when. */
  summary?: {
    fromSeq: number;
    throughSeq: number;
    messages: number;
    version: number;
    model: string;
    createdAt: string;
  };
  /** On the long-term memory section: each fact sent and the message it was learned from. */
  facts?: FactSent[];
  /** On a recalled message: where it is, when it was written, and how well it matched the question. */
  sessionId?: string;
  messageId?: string;
  createdAt?: string;
  score?: number;
  /** On a project file's passage: the file, and where in it (1-based, of `chunkCount`). */
  fileName?: string;
  position?: number;
  chunkCount?: number;
}

export type MessageHref = (sessionId: string, messageId: string) => string;

/** One line of the inspector: where the item came from, what was sent (one line until opened), and its cost. */
export function ContextEntryRow({
  entry,
  expanded,
  onToggle,
  sessionId,
  messageHref,
}: {
  entry: ContextEntryView;
  expanded: boolean;
  onToggle: () => void;
  /** The conversation whose answer this is: a recalled item from elsewhere says so. */
  sessionId: string;
  messageHref: MessageHref;
}) {
  const t = useT("chat");
  const tm = useT("chatMemory");
  const tt = useT("tools");
  const ti = useT("instructions");
  return (
    <li
      className="flex gap-2 rounded bg-white p-2"
      data-testid="context-entry"
      data-source={entry.source}
      data-seq={entry.seq ?? ""}
      data-scope={entry.scope}
    >
      <span className="w-36 shrink-0 text-xs text-zinc-500">
        {entry.source === "tool" ? tt("contextSource") : t(`context.source.${entry.source}`)}
        {entry.seq !== undefined ? ` #${entry.seq}` : ""} · {roleWord(t, entry.role)}
        {entry.scope && ` · ${ti(`scope.${entry.scope}`)}`}
      </span>
      <span className="min-w-0 flex-1">
        {entry.summary && (
          <span className="block text-xs font-medium text-zinc-700" data-testid="context-summary-range">
            {describeSummary(tm, entry.summary)}
          </span>
        )}
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          className={`block w-full text-left ${expanded ? "whitespace-pre-wrap [overflow-wrap:anywhere]" : "truncate"}`}
          title={entry.preview}
          data-testid="context-entry-preview"
        >
          {entry.preview || <em className="text-zinc-500">{t("context.empty")}</em>}
        </button>
        {entry.facts && <FactsSent facts={entry.facts} messageHref={messageHref} />}
        {entry.source === "recalled" && (
          <RecalledSource entry={entry} sessionId={sessionId} messageHref={messageHref} />
        )}
        {entry.source === "file" && (
          <span className="mt-0.5 block text-xs text-zinc-600" data-testid="context-file">
            {t("context.recalledFile", {
              score: (entry.score ?? 0).toPrecision(3),
              file: entry.fileName ?? "",
              position: String(entry.position ?? 0),
              count: String(entry.chunkCount ?? 0),
            })}
          </span>
        )}
      </span>
      <span className="shrink-0 text-xs tabular-nums text-zinc-500" data-testid="context-entry-tokens">
        {t("context.entryTokens", { count: formatCount(entry.tokens) })}
      </span>
    </li>
  );
}

/** A recalled message's score, the conversation and date it comes from, and a link to it. */
function RecalledSource({
  entry,
  sessionId,
  messageHref,
}: {
  entry: ContextEntryView;
  sessionId: string;
  messageHref: MessageHref;
}) {
  const t = useT("chat");
  const format = useFormat();
  const here = entry.sessionId === sessionId;
  return (
    <span className="mt-0.5 block text-xs text-zinc-600" data-testid="context-recalled">
      <span data-testid="context-recalled-score">
        {t("context.recalledScore", { score: (entry.score ?? 0).toPrecision(3) })}
      </span>{" "}
      ·{" "}
      {t("context.recalledFrom", {
        conversation: here ? t("context.recalledHere") : t("context.recalledOther"),
        date: entry.createdAt ? format.dateTime(entry.createdAt) : "—",
      })}
      {entry.sessionId && entry.messageId && (
        <>
          {" "}
          ·{" "}
          <a
            href={messageHref(entry.sessionId, entry.messageId)}
            className="underline"
            data-testid="context-recalled-source"
          >
            {t("context.recalledOpen")}
          </a>
        </>
      )}
    </span>
  );
}
