import "server-only";
import { listActiveFacts, longTermMemoryState } from "@/lib/db/memories";
import { env } from "@/lib/env";
import type { LongTermFact } from "@/lib/memory";

// The user's long-term facts for a turn. A user may have thousands; rereading them all on every turn would make the
// turn's cost grow with them, so they are cached per user and reread only when the index-only fingerprint of the
// active facts (count, newest change) moves — two cheap statements per turn whatever the number of facts.

const CACHED_USERS = 1000;
const cache = new Map<string, { stamp: string; facts: CachedFact[] }>();

// An expiring fact leaves the section at its expiresAt though the fingerprint has not moved (retention deletes it later).
type CachedFact = LongTermFact & { expiresAt: number | null };
const live = (facts: CachedFact[], now: number): LongTermFact[] =>
  facts.filter((f) => f.expiresAt === null || f.expiresAt > now).map(({ expiresAt: _expiresAt, ...f }) => f);

export interface LongTermMemory {
  /** On for the deployment (LONG_TERM_MEMORY) and for the user. */
  enabled: boolean;
  /** Active facts, most recently changed first ([] when off). */
  facts: LongTermFact[];
}

export async function loadLongTermMemory({ userId }: { userId: string }): Promise<LongTermMemory> {
  if (!env.LONG_TERM_MEMORY) return { enabled: false, facts: [] };
  const { enabled, stamp } = await longTermMemoryState({ userId });
  if (!enabled) return { enabled: false, facts: [] };
  const hit = cache.get(userId);
  if (hit?.stamp === stamp) return { enabled: true, facts: live(hit.facts, Date.now()) };
  const facts = (await listActiveFacts({ userId })).map((f) => ({
    id: f.id,
    text: f.text,
    sourceSessionId: f.sourceSessionId,
    sourceMessageId: f.sourceMessageId,
    expiresAt: f.expiresAt ? f.expiresAt.getTime() : null,
  }));
  cache.delete(userId);
  cache.set(userId, { stamp, facts });
  if (cache.size > CACHED_USERS) cache.delete(cache.keys().next().value as string);
  return { enabled: true, facts: live(facts, Date.now()) };
}
