import { formatCount } from "@/components/chat/format";
import { describePolicy, describeSummary } from "@/components/chat/memory-words";
import { formatDateTime } from "./format";
import type { MemoryItemView, SessionReviewView, SnapshotView } from "./types";

const POLICY_NAMES = { window: "message window", tokens: "token budget", summary: "summary" } as const;

/** The conversation's memory settings in force (its own over the server's defaults). */
function SettingsList({
  settings,
  memoryStartSeq,
}: {
  settings: SessionReviewView["settings"];
  memoryStartSeq: number;
}) {
  return (
    <dl
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md bg-white p-2 text-xs"
      data-testid="memory-settings"
    >
      <dt className="text-zinc-500">Memory</dt>
      <dd data-testid="memory-settings-enabled">{settings.enabled ? "on" : "off"}</dd>
      <dt className="text-zinc-500">Policy</dt>
      <dd data-testid="memory-settings-policy">{POLICY_NAMES[settings.policy]}</dd>
      <dt className="text-zinc-500">Messages</dt>
      <dd>{formatCount(settings.maxMessages)}</dd>
      {settings.policy === "tokens" && (
        <>
          <dt className="text-zinc-500">Token budget</dt>
          <dd>{formatCount(settings.maxTokens)}</dd>
        </>
      )}
      <dt className="text-zinc-500">Cleared</dt>
      <dd data-testid="memory-settings-cleared">
        {memoryStartSeq > 0 ? `yes, after #${memoryStartSeq}` : "never"}
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
  return (
    <li
      className="rounded border border-zinc-200 bg-white p-2"
      data-testid="snapshot-item"
      data-seq={item.seq ?? ""}
    >
      <p className="mb-0.5 text-xs text-zinc-500">
        {item.seq !== undefined ? <span className="font-mono">#{item.seq}</span> : "—"} · {item.role}
        {item.summary ? ` · ${item.summaryMeta ? describeSummary(item.summaryMeta) : "summary"}` : ""}
        {item.toolCalls?.length ? ` · ${item.toolCalls.length} tool call(s)` : ""}
      </p>
      <p className="line-clamp-3 whitespace-pre-wrap [overflow-wrap:anywhere] text-xs" title={item.text}>
        {item.text || <em className="text-zinc-500">(empty)</em>}
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
  return (
    <section
      className="space-y-3 rounded-lg border border-zinc-200 bg-zinc-50 p-3 text-sm"
      aria-labelledby="memory-heading"
      data-testid="memory-panel"
    >
      <h2 id="memory-heading" className="font-semibold">
        Memory
      </h2>
      <SettingsList settings={settings} memoryStartSeq={memoryStartSeq} />
      <div className="rounded-md bg-white p-2 text-xs" data-testid="next-context">
        <p className="font-medium text-zinc-900">On the next turn the model is sent</p>
        <ol className="mt-1 list-decimal space-y-0.5 pl-5 text-zinc-700">
          <li>the system prompt</li>
          <li>
            {nextContextSeqs.length === 0 ? (
              <span>no history</span>
            ) : (
              <span>
                {nextContextSeqs.length} history message{nextContextSeqs.length === 1 ? "" : "s"} (
                {seqRange(nextContextSeqs)})
              </span>
            )}
          </li>
          <li>the new question</li>
        </ol>
        <p className="mt-1 text-zinc-500">
          Policy in force: {describePolicy(policy)} (<code className="font-mono">{policy}</code>)
        </p>
      </div>

      {!snapshot && (
        <p className="text-zinc-600" data-testid="no-snapshot">
          No snapshot stored yet: no turn has finished in this conversation.
        </p>
      )}
      {snapshot && (
        <>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-zinc-500">Made by</dt>
            <dd>
              {describePolicy(snapshot.policy)} (<code className="font-mono">{snapshot.policy}</code>)
            </dd>
            <dt className="text-zinc-500">Covers</dt>
            <dd>
              history through #{snapshot.throughSeq} of #{lastSeq}
            </dd>
            <dt className="text-zinc-500">Version</dt>
            <dd>
              {snapshot.version} · {formatDateTime(snapshot.updatedAt)}
            </dd>
          </dl>
          {snapshot.error ? (
            <p role="alert" className="rounded bg-red-50 p-2 text-xs text-red-800">
              The stored snapshot cannot be read ({snapshot.error}). The next turn will fail to read it too.
            </p>
          ) : (
            !snapshot.current && (
              <p className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="snapshot-stale">
                This snapshot is out of date (another policy, or history has moved on). The next turn rebuilds
                memory from the latest messages, as listed above.
              </p>
            )
          )}
          <div>
            <h3 className="mb-1 text-xs font-medium text-zinc-700">Stored items ({snapshot.items.length})</h3>
            {snapshot.items.length === 0 ? (
              <p className="text-xs text-zinc-500">The snapshot is empty.</p>
            ) : (
              <ol className="space-y-1" aria-label="Snapshot items">
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
