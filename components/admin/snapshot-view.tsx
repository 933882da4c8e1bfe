import { describePolicy, describeSummary } from "@/components/chat/memory-words";
import { useFormat, useT } from "@/lib/i18n/client";
import type { MemoryItemView, SnapshotView } from "./types";

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

/** The stored memory snapshot: who made it, what it covers, whether the next turn uses it, and its items. */
export function SnapshotDetails({ snapshot, lastSeq }: { snapshot: SnapshotView | null; lastSeq: number }) {
  const t = useT("admin");
  const tm = useT("chatMemory");
  const format = useFormat();
  return (
    <>
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
    </>
  );
}
