import "server-only";
import { messagesToEmbed, storeEmbeddings, vectorStore } from "@/lib/db/embeddings";
import { type Embedder, getEmbedder } from "@/lib/llm/embeddings";
import { errorText } from "./stream-answer";

// Messages are embedded after their turn commits, off its path (docs/decisions/026-recall.md): the job walks the
// search index in id order from where it last stopped, so the first run after a start is the backlog (older and
// imported messages) and every later one picks up what turns and imports indexed since. One run at a time per
// process; a request meanwhile runs again after it. A failed batch is tried again at the next request.

const BATCH = 64;
const state: { cursor: number; running: Promise<void> | null; again: boolean } = {
  cursor: 0,
  running: null,
  again: false,
};

/** Embeds whatever the index holds that has no embedding yet; returns at once (no-op without EMBEDDINGS_MODEL). */
export function scheduleEmbeddings(embedder: Embedder | null = getEmbedder()): void {
  if (!embedder) return;
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = embedPending(embedder)
    .catch((e: unknown) => console.error(`[recall] embedding messages failed: ${errorText(e)}`))
    .finally(() => {
      state.running = null;
      if (state.again) {
        state.again = false;
        scheduleEmbeddings(embedder);
      }
    });
}

async function embedPending(embedder: Embedder): Promise<void> {
  if ((await vectorStore()).kind === "none") return;
  for (;;) {
    const batch = await messagesToEmbed({ model: embedder.model, afterDocId: state.cursor, limit: BATCH });
    if (batch.length === 0) return;
    const vectors = await embedder.embed(batch.map((b) => b.text));
    await storeEmbeddings({
      model: embedder.model,
      items: batch.map((b, i) => ({ messageId: b.messageId, vector: vectors[i] as number[] })),
    });
    state.cursor = (batch.at(-1) as (typeof batch)[number]).docId;
  }
}

/** Resolves once no embedding run is going (tests, the bench). */
export async function embeddingsSettled(): Promise<void> {
  while (state.running) await state.running;
}

export type EmbeddingsStatus =
  | { status: "off" }
  | { status: "on"; model: string; store: "sqlite-vec" | "pgvector" }
  | { status: "unavailable"; model: string; reason: string };

/** Whether recall fuses embeddings here, for the start message and /api/health. */
export async function embeddingsStatus(embedder: Embedder | null = getEmbedder()): Promise<EmbeddingsStatus> {
  if (!embedder) return { status: "off" };
  const store = await vectorStore();
  return store.kind === "none"
    ? { status: "unavailable", model: embedder.model, reason: `${store.reason}; recall ranks lexically only` }
    : { status: "on", model: embedder.model, store: store.kind };
}
