// The JSON of the long-term memory API (GET /api/memories, /api/me/settings), as the browser receives it.

export interface MemoryView {
  id: string;
  text: string;
  /** All three null: the fact was kept when its conversation was deleted. */
  sourceSessionId: string | null;
  sourceMessageId: string | null;
  sourceSessionTitle: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the fact stops being used (null: never). */
  expiresAt: string | null;
  /** Present with `?include=superseded`: the fact that replaced this one (null: still used). */
  supersededById?: string | null;
  status?: "active" | "suggested";
}

export interface MemoriesPage {
  memories: MemoryView[];
  nextCursor: string | null;
}

export interface UserSettingsView {
  longTermMemory: boolean;
  memoryExtraction: "off" | "suggest" | "auto";
}

/** Same limit as the API (lib/api/memory-schemas.ts). */
export const MAX_FACT_CHARS = 500;

/** Where a fact was learned: its conversation, opened at the message. */
export const sourceHref = (m: { sourceSessionId: string; sourceMessageId: string }) =>
  `/c/${m.sourceSessionId}?message=${encodeURIComponent(m.sourceMessageId)}`;
