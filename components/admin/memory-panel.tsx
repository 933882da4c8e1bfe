import { formatCount } from "@/components/chat/format";
import { describePolicy, describeSummary } from "@/components/chat/memory-words";
import { useFormat, useT } from "@/lib/i18n/client";
import type { MemoryItemView, SessionReviewView, SnapshotView } from "./types";

const POLICY_NAMES = {
  window: "memory.policyWindow",
  tokens: "memory.policyTokens",
  summary: "memory.policySummary",
} as const;

/** The conversation's memory settings in force (its own over the server's defaults). */
function SettingsList({
  settings,
  memoryStartSeq,
}: {
  settings: SessionReviewView["settings"];
  memoryStartSeq: number;
}) {
  const t = useT("admin");
  return (
    <dl
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md bg-white p-2 text-xs"
      data-testid="memory-settings"
    >
      <dt className="text-zinc-500">{t("memory.memory")}</dt>
      <dd data-testid="memory-settings-enabled">{settings.enabled ? t("memory.on") : t("memory.off")}</dd>
      <dt className="text-zinc-500">{t("memory.policy")}</dt>
      <dd data-testid="memory-settings-policy">{t(POLICY_NAMES[settings.policy])}</dd>
      <dt className="text-zinc-500">{t("memory.messages")}</dt>
      <dd>{formatCount(settings.maxMessages)}</dd>
      {settings.policy === "tokens" && (
        <>
          <dt className="text-zinc-500">{t("memory.tokenBudget")}</dt>
          <dd>{formatCount(settings.maxTokens)}</dd>
        </>
      )}
      <dt className="text-zinc-500">{t("memory.cleared")}</dt>
      <dd data-testid="memory-settings-cleared">
        {memoryStartSeq > 0 ? t("memory.clearedAfter", { seq: memoryStartSeq }) : t("memory.never")}
      </dd>
    </dl>
  );
}

function seqRange(seqs: number[]): string {
  if (seqs.length === 0) return "";
  const first = seqs[0];
  const last = seqs.at(-1);
  return first === last ? `#${first}` : `#${first}–#${last}`;
}

function ItemRow({ item }: { item: MemoryItemView }) {
  const t = useT("admin");
  const tm = useT("chatMemory");
  return (
    <li
      className="rounded border border-zinc-200 bg-white p-2"
      data-testid="snapshot-item"
      data-seq={item.seq ?? ""}
    >
      <p className="mb-0.5 text-xs text-zinc-500">
        {item.seq !== undefined ? <span className="font-mono">#{item.seq}</span> : "—"} · {item.role}
        {item.summary
          ? ` · ${item.summaryMeta ? describeSummary(tm, item.summaryMeta) : t("memory.summary")}`
          : ""}
        {item.toolCalls?.length ? ` · ${t("memory.toolCalls", { count: item.toolCalls.length })}` : ""}
      </p>
      <p className="line-clamp-3 whitespace-pre-wrap [overflow-wrap:anywhere] text-xs" title={item.text}>
        {item.text || <em className="text-zinc-500">{t("empty")}</em>}
      </p>
    </li>
  );
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
  const format = useFormat();
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

      {!snapshot && (
        <p className="text-zinc-600" data-testid="no-snapshot">
          {t("memory.noSnapshot")}
        </p>
      )}
      {snapshot && (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-zinc-500">{t("memory.madeBy")}</dt>
            <dd>
              {describePolicy(tm, snapshot.policy)} (<code className="font-mono">{snapshot.policy}</code>)
            </dd>
            <dt className="text-zinc-500">{t("memory.covers")}</dt>
            <dd>{t("memory.coversValue", { through: snapshot.throughSeq, last: lastSeq })}</dd>
            <dt className="text-zinc-500">{t("memory.version")}</dt>
            <dd>
              {snapshot.version} · {format.dateTime(snapshot.updatedAt)}
            </dd>
          </dl>
          {snapshot.error ? (
            <p role="alert" className="rounded bg-red-50 p-2 text-xs text-red-800">
              {t("memory.unreadable", { error: snapshot.error })}
            </p>
          ) : (
            !snapshot.current && (
              <p className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="snapshot-stale">
                {t("memory.stale")}
              </p>
            )
          )}
          <div>
            <h3 className="mb-1 text-xs font-medium text-zinc-700">
              {t("memory.items", { count: snapshot.items.length })}
            </h3>
            {snapshot.items.length === 0 ? (
              <p className="text-xs text-zinc-500">{t("memory.noItems")}</p>
            ) : (
              <ol className="space-y-1" aria-label={t("memory.itemsLabel")}>
                {snapshot.items.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot is an immutable ordered list
                  <ItemRow key={i} item={item} />
                ))}
              </ol>
            )}
          </div>
        </>
      )}
    </section>
  );
}
