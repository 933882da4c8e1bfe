import "server-only";
import { db } from "@/lib/db/client";
import {
  clearSessionMemoryForUser,
  getSessionMemoryForUser,
  updateSessionMemorySettings,
} from "@/lib/db/sessions";
import { AppError } from "@/lib/errors";
import { type MemoryItem, validateMemorySettings } from "@/lib/memory";
import { loadMemory } from "./memory";
import { type MemoryConfig, memoryConfig, storedMemorySettings } from "./memory-config";
import { scheduleSummaryBacklog } from "./summary-backlog";

/**
 * What a conversation's memory is and what the next turn will use (GET /api/sessions/:id/memory): its settings
 * (stored over the environment's defaults), the effective policy and budget, which history messages memory holds
 * now, and the summary when there is one.
 */
export async function getMemoryState({ sessionId, userId }: { sessionId: string; userId: string }) {
  const session = await getSessionMemoryForUser({ sessionId, userId });
  const stored = storedMemorySettings(session.memorySettings);
  const config = memoryConfig(stored);
  const memory = await loadMemory(db, {
    sessionId,
    leaf: session.activeLeafId ? { id: session.activeLeafId, seq: session.activeLeafSeq } : null,
    startSeq: session.memoryStartSeq,
    config,
  });
  return memoryStateOf({
    config,
    items: memory.items,
    custom: stored !== null && Object.keys(stored).length > 0,
    session,
  });
}

function memoryStateOf({
  config,
  items,
  custom,
  session,
}: {
  config: MemoryConfig;
  items: MemoryItem[];
  custom: boolean;
  session: { lastSeq: number; memoryStartSeq: number };
}) {
  const history = items.filter((item) => item.seq !== undefined);
  const seqs = history.map((item) => item.seq as number);
  const summaryItem = items.find((item) => item.summary && item.summaryMeta);
  const { settings } = config;
  return {
    ...settings,
    /** False when the conversation uses the environment's defaults. */
    custom,
    effective: {
      ...settings,
      // Memory switched off recalls nothing either.
      recall: config.recall?.scope ?? "off",
      policyId: config.policy.id,
      /** Budget for everything sent, or null when only the model's context window limits it. */
      maxContextTokens: config.contextMaxTokens ?? null,
      modelContextTokens: config.modelContextTokens,
    },
    inMemory: {
      fromSeq: seqs.length > 0 ? Math.min(...seqs) : null,
      throughSeq: seqs.length > 0 ? Math.max(...seqs) : null,
      count: history.length,
      tokens: items.reduce((total, item) => total + config.tokenizer.countItem(item), 0),
    },
    /** Messages up to this seq were in the conversation before its memory was cleared (0: never cleared). */
    clearedThroughSeq: session.memoryStartSeq,
    historyMessages: session.lastSeq,
    ...(summaryItem?.summaryMeta ? { summary: summaryItem.summaryMeta } : {}),
  };
}

export type MemoryState = Awaited<ReturnType<typeof getMemoryState>>;

/** Changes any of a conversation's memory settings; the next turn uses them (PATCH). Bad values are a 422. */
export async function updateMemorySettings({
  sessionId,
  userId,
  change,
}: {
  sessionId: string;
  userId: string;
  change: unknown;
}) {
  const checked = validateMemorySettings(change);
  if (!checked.ok) {
    const details = checked.errors.map((e) => ({ path: e.field, message: e.message }));
    throw new AppError("validation_failed", details[0]?.message ?? "Invalid memory settings.", { details });
  }
  const session = await getSessionMemoryForUser({ sessionId, userId });
  const settings = { ...storedMemorySettings(session.memorySettings), ...checked.value };
  await updateSessionMemorySettings({ sessionId, userId, settings });
  if (settings.policy === "summary") scheduleSummaryBacklog({ sessionId });
  return getMemoryState({ sessionId, userId });
}

/** Forgets everything said so far (POST …/memory/clear); the history stays. */
export async function clearMemory({ sessionId, userId }: { sessionId: string; userId: string }) {
  const session = await getSessionMemoryForUser({ sessionId, userId });
  const config = memoryConfig(storedMemorySettings(session.memorySettings));
  await clearSessionMemoryForUser({ sessionId, userId, policy: config.policy.id });
  return getMemoryState({ sessionId, userId });
}
