import "server-only";
import { setImmediate as nextLoopTurn } from "node:timers/promises";
import { type EmbeddedTable, storeVectors, vectorStore, vectorsToMake } from "@/lib/db/embeddings";
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
  cursors: Record<EmbeddedTable, number>;
  running: Promise<void> | null;
  again: boolean;
} = {
  cursors: { messages: 0, chunks: 0 },
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
    const messages = await embedBatch(embedder, "messages");
    const chunks = await embedBatch(embedder, "chunks");
    if (messages === 0 && chunks === 0) return;
  }
}

/** One batch of the table's rows from its cursor; how many there were. */
async function embedBatch(embedder: Embedder, table: EmbeddedTable): Promise<number> {
  const batch = await vectorsToMake({
    table,
    model: embedder.model,
    after: state.cursors[table],
    limit: BATCH,
  });
  if (batch.length === 0) return 0;
  const vectors = await embedder.embed(batch.map((b) => b.text));
  await storeVectors({
    table,
    model: embedder.model,
    items: batch.map((b, i) => ({ key: b.key, vector: vectors[i] as number[] })),
  });
  state.cursors[table] = (batch.at(-1) as (typeof batch)[number]).position;
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
