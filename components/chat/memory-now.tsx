"use client";

import type { MemoryStateView } from "@/lib/client/types";
import type { Translator } from "@/lib/i18n/translate";
import { formatCount } from "./format";
import { describeSummary } from "./memory-words";

/** What memory holds right now: the messages in it, their tokens, the summary, the clear boundary. */
export function MemoryNow({ memory, t }: { memory: MemoryStateView; t: Translator<"chatMemory"> }) {
  const { inMemory, summary } = memory;
  const range =
    inMemory.fromSeq === null
      ? null
      : inMemory.fromSeq === inMemory.throughSeq
        ? `#${inMemory.fromSeq}`
        : `#${inMemory.fromSeq}–#${inMemory.throughSeq}`;
  return (
    <dl
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600"
      data-testid="memory-now"
    >
      <dt>{t("now.inMemory")}</dt>
      <dd>
        {inMemory.count === 0
          ? t("now.none")
          : t("now.held", {
              range: range ?? "",
              messages: t("messages", { n: inMemory.count, count: formatCount(inMemory.count) }),
            })}{" "}
        · {t("now.tokens", { count: formatCount(inMemory.tokens) })}
      </dd>
      {summary && (
        <>
          <dt>{t("now.summary")}</dt>
          <dd data-testid="memory-summary">{describeSummary(t, summary)}</dd>
        </>
      )}
      {memory.clearedThroughSeq > 0 && (
        <>
          <dt>{t("now.cleared")}</dt>
          <dd>{t("now.clearedAfter", { seq: memory.clearedThroughSeq })}</dd>
        </>
      )}
      {!memory.custom && (
        <>
          <dt>{t("now.settings")}</dt>
          <dd>{t("now.defaults")}</dd>
        </>
      )}
    </dl>
  );
}
