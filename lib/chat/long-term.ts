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
// Every active fact of the user is cached; a conversation sees the global ones and its project's (decision 036).
type CachedFact = LongTermFact & { expiresAt: number | null; projectId: string | null };
const live = (facts: CachedFact[], now: number, projectId: string | null): LongTermFact[] =>
  facts
    .filter((f) => (f.expiresAt === null || f.expiresAt > now) && inScope(f.projectId, projectId))
    .map(({ expiresAt: _expiresAt, projectId: _projectId, ...f }) => f);

/** Whether a fact of `factProject` (null: global) is seen in a conversation of `conversationProject`. */
const inScope = (factProject: string | null, conversationProject: string | null): boolean =>
  factProject === null || factProject === conversationProject;

export interface LongTermMemory {
  /** On for the deployment (LONG_TERM_MEMORY) and for the user. */
  enabled: boolean;
  /** Active facts, most recently changed first ([] when off). */
  facts: LongTermFact[];
}

/** `projectId`: the conversation's project (null: none); its facts are seen beside the global ones. */
export async function loadLongTermMemory({
  userId,
  projectId,
}: {
  userId: string;
  projectId: string | null;
}): Promise<LongTermMemory> {
  if (!env.LONG_TERM_MEMORY) return { enabled: false, facts: [] };
  const { enabled, stamp } = await longTermMemoryState({ userId });
  if (!enabled) return { enabled: false, facts: [] };
  const hit = cache.get(userId);
  if (hit?.stamp === stamp) return { enabled: true, facts: live(hit.facts, Date.now(), projectId) };
  const facts = (await listActiveFacts({ userId })).map((f) => ({
    id: f.id,
    text: f.text,
    sourceSessionId: f.sourceSessionId,
    sourceMessageId: f.sourceMessageId,
    expiresAt: f.expiresAt ? f.expiresAt.getTime() : null,
    projectId: f.projectId,
  }));
  cache.delete(userId);
  cache.set(userId, { stamp, facts });
  if (cache.size > CACHED_USERS) cache.delete(cache.keys().next().value as string);
  return { enabled: true, facts: live(facts, Date.now(), projectId) };
}
