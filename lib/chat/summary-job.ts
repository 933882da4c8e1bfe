import "server-only";
import { recordSummaryFailure } from "@/lib/db/admin-audit";
import { getSnapshotBySessionId, replaceSnapshotItems } from "@/lib/db/snapshots";
import { getModel } from "@/lib/llm";
import { summarizeWithModel } from "@/lib/llm/summarize";
import { type MemoryItem, needsSummary, restore, summarize, summaryConfigFor } from "@/lib/memory";
import type { MemoryConfig } from "./memory-config";
import { errorText } from "./stream-answer";

// Summaries are made after a turn is committed, off its path: the answer is already delivered and the next turn
// never waits for one. A summary is written only onto the snapshot version it was made from; if a turn commits
// meanwhile, that turn folds itself onto the summary (lib/chat/turn.ts) or the summary is made again later.

const running = new Set<Promise<void>>();

/** Starts a summary of the conversation's memory when its policy summarizes and memory reached the trigger. */
export function scheduleSummary({
  sessionId,
  items,
  config,
}: {
  sessionId: string;
  items: readonly MemoryItem[];
  config: MemoryConfig;
}): void {
  const { settings } = config;
  if (!settings.enabled || settings.policy !== "summary") return;
  if (!needsSummary(items, summaryConfigFor(settings))) return;
  const job = summarizeSession({ sessionId, config })
    .catch((e: unknown) => console.error(`[memory] summary of session ${sessionId} failed: ${errorText(e)}`))
    .finally(() => running.delete(job));
  running.add(job);
}

/** Resolves once every summary this process started has finished (tests, graceful shutdown). */
export async function summariesSettled(): Promise<void> {
  while (running.size > 0) await Promise.allSettled([...running]);
}

/**
 * Summarizes the snapshot as it is now and writes the result onto that version. When a turn committed meanwhile
 * (the version moved), it starts again from the new snapshot, a few times at most: the summary policy keeps
 * unsummarized messages in memory meanwhile, so nothing is lost.
 */
async function summarizeSession({ sessionId, config }: { sessionId: string; config: MemoryConfig }) {
  const model = getModel();
  for (let attempt = 0; attempt < 3; attempt++) {
    const snapshot = await getSnapshotBySessionId({ sessionId });
    if (!snapshot || snapshot.policy !== config.policy.id) return;
    const outcome = await summarize({
      items: restore(snapshot.items),
      config: summaryConfigFor(config.settings),
      summarizer: (input, signal) => summarizeWithModel(input, signal, model),
      model: model.model,
      now: () => new Date(),
    });
    if (outcome.status === "skipped") return;
    if (outcome.status !== "summarized") {
      const messages = outcome.items.filter((item) => item.seq !== undefined).length;
      console.warn(
        `[memory] summary of session ${sessionId} was ${outcome.status}; the messages stay in memory`,
      );
      await recordSummaryFailure({ sessionId, status: outcome.status, messages });
      return;
    }
    if (await replaceSnapshotItems({ sessionId, version: snapshot.version, items: outcome.items })) return;
  }
}
