import "server-only";
import { setImmediate as nextLoopTurn } from "node:timers/promises";
import {
  chunksToEmbed,
  messagesToEmbed,
  storeChunkEmbeddings,
  storeEmbeddings,
  vectorStore,
} from "@/lib/db/embeddings";
import { type Embedder, getEmbedder } from "@/lib/llm/embeddings";
import { errorText } from "./stream-answer";

// Messages are embedded after their turn commits, off its path (docs/decisions/026-recall.md): the job walks the
// search index in id order from where it last stopped, so the first run after a start is the backlog (older and
// imported messages) and every later one picks up what turns and imports indexed since. Project file chunks are
// walked the same way, by chunk id, in batches taking turns with the messages' so a large upload does not hold back
// the turns committed meanwhile, nor the reverse (docs/decisions/039-chunk-embeddings.md). One run at a time per
// process; a request meanwhile runs again after it. A failed batch is tried again at the next request.

const BATCH = 64;
const state: {
  cursor: number;
  chunkCursor: number;
  running: Promise<void> | null;
  again: boolean;
} = {
  cursor: 0,
  chunkCursor: 0,
  running: null,
  again: false,
};

/**
 * Embeds whatever the index and the project files hold that has no embedding yet; returns at once (no-op without
 * EMBEDDINGS_MODEL). Started by a committed turn, an import and a file upload.
 */
export function scheduleEmbeddings(embedder: Embedder | null = getEmbedder()): void {
  if (!embedder) return;
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = embedPending(embedder)
    .catch((e: unknown) => console.error(`[recall] embedding failed: ${errorText(e)}`))
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
  for (let round = 0; ; round++) {
    // SQLite's driver is synchronous and the offline embedder answers in process: without this, a backlog of an
    // import would be one chain of microtasks and the server would read no request until it ended.
    if (round > 0) await nextLoopTurn();
    const messages = await embedMessages(embedder);
    const chunks = await embedChunks(embedder);
    if (messages === 0 && chunks === 0) return;
  }
}

/** One batch of messages; how many there were. */
async function embedMessages(embedder: Embedder): Promise<number> {
  const batch = await messagesToEmbed({ model: embedder.model, afterDocId: state.cursor, limit: BATCH });
  if (batch.length === 0) return 0;
  const vectors = await embedder.embed(batch.map((b) => b.text));
  await storeEmbeddings({
    model: embedder.model,
    items: batch.map((b, i) => ({ messageId: b.messageId, vector: vectors[i] as number[] })),
  });
  state.cursor = (batch.at(-1) as (typeof batch)[number]).docId;
  return batch.length;
}

/** One batch of project file chunks; how many there were. */
async function embedChunks(embedder: Embedder): Promise<number> {
  const batch = await chunksToEmbed({ model: embedder.model, afterId: state.chunkCursor, limit: BATCH });
  if (batch.length === 0) return 0;
  const vectors = await embedder.embed(batch.map((b) => b.text));
  await storeChunkEmbeddings({
    model: embedder.model,
    items: batch.map((b, i) => ({ chunkId: b.chunkId, vector: vectors[i] as number[] })),
  });
  state.chunkCursor = (batch.at(-1) as (typeof batch)[number]).chunkId;
  return batch.length;
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
