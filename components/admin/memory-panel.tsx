import { describePolicy } from "@/components/chat/memory-words";
import { useT } from "@/lib/i18n/client";
import { SettingsList } from "./memory-settings-list";
import { SnapshotDetails } from "./snapshot-view";
import type { SessionReviewView, SnapshotView } from "./types";

function seqRange(seqs: number[]): string {
  if (seqs.length === 0) return "";
  const first = seqs[0];
  const last = seqs.at(-1);
  return first === last ? `#${first}` : `#${first}–#${last}`;
}

/** The stored memory snapshot and what the next turn would send, beside the history. */
export function MemoryPanel({
  snapshot,
  policy,
  settings,
  memoryStartSeq,
  nextContextSeqs,
  lastSeq,
}: {
  snapshot: SnapshotView | null;
  policy: string;
  settings: SessionReviewView["settings"];
  memoryStartSeq: number;
  nextContextSeqs: number[];
  lastSeq: number;
}) {
  const t = useT("admin");
  const tm = useT("chatMemory");
  return (
    <section
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-sm"
      aria-labelledby="memory-heading"
      data-testid="memory-panel"
    >
      <h2 id="memory-heading" className="font-semibold">
        {t("memory.title")}
      </h2>
      <SettingsList settings={settings} memoryStartSeq={memoryStartSeq} />
      <div className="rounded-md bg-white p-2 text-xs" data-testid="next-context">
        <p className="font-medium text-zinc-900">{t("memory.nextTurn")}</p>
        <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-zinc-700">
          <li>{t("memory.systemPrompt")}</li>
          <li>
            {nextContextSeqs.length === 0 ? (
              <span>{t("memory.noHistory")}</span>
            ) : (
              <span>
                {t("memory.historyMessages", {
                  count: nextContextSeqs.length,
                  range: seqRange(nextContextSeqs),
                })}
              </span>
            )}
          </li>
          <li>{t("memory.newQuestion")}</li>
        </ol>
        <p className="mt-1 text-zinc-500">
          {t("memory.inForce", { policy: describePolicy(tm, policy) })} (
          <code className="font-mono">{policy}</code>)
        </p>
      </div>

      <SnapshotDetails snapshot={snapshot} lastSeq={lastSeq} />
    </section>
  );
}
