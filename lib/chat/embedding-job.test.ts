import { describe, expect, it, vi } from "vitest";

// The embedding job's order (docs/decisions/039-chunk-embeddings.md): batches of messages and of project file chunks
// take turns until neither has any left, each walked from its own cursor. The data layer is replaced by two queues.

const db = vi.hoisted(() => ({
  messages: [] as { docId: number; messageId: string; text: string }[],
  chunks: [] as { chunkId: number; text: string }[],
  calls: [] as string[],
}));

vi.mock("@/lib/db/embeddings", () => ({
  vectorStore: async () => ({ kind: "sqlite-vec" }),
  messagesToEmbed: async ({ afterDocId, limit }: { afterDocId: number; limit: number }) => {
    db.calls.push(`messages>${afterDocId}`);
    return db.messages.filter((m) => m.docId > afterDocId).slice(0, limit);
  },
  chunksToEmbed: async ({ afterId, limit }: { afterId: number; limit: number }) => {
    db.calls.push(`chunks>${afterId}`);
    return db.chunks.filter((c) => c.chunkId > afterId).slice(0, limit);
  },
  storeEmbeddings: async ({ items }: { items: unknown[] }) => {
    db.calls.push(`store ${items.length} messages`);
  },
  storeChunkEmbeddings: async ({ items }: { items: unknown[] }) => {
    db.calls.push(`store ${items.length} chunks`);
  },
}));

const { embeddingsSettled, scheduleEmbeddings } = await import("./embedding-job");

const embedder = { model: "m", embed: async (texts: string[]) => texts.map(() => [1, 0]) };

describe("embedding job", () => {
  it("takes turns between 64 messages and 64 chunks, each from its own cursor, until both are done", async () => {
    db.messages = Array.from({ length: 100 }, (_, i) => ({ docId: i + 1, messageId: `m${i}`, text: "t" }));
    db.chunks = Array.from({ length: 150 }, (_, i) => ({ chunkId: 1000 + i, text: "c" }));
    scheduleEmbeddings(embedder);
    await embeddingsSettled();
    expect(db.calls).toEqual([
      "messages>0",
      "store 64 messages",
      "chunks>0",
      "store 64 chunks",
      "messages>64",
      "store 36 messages",
      "chunks>1063",
      "store 64 chunks",
      "messages>100",
      "chunks>1127",
      "store 22 chunks",
      "messages>100",
      "chunks>1149",
    ]);

    // A later upload: only the new chunks, from where the chunk cursor stopped.
    db.chunks.push({ chunkId: 2000, text: "new" });
    scheduleEmbeddings(embedder);
    await embeddingsSettled();
    expect(db.calls.slice(13)).toEqual([
      "messages>100",
      "chunks>1149",
      "store 1 chunks",
      "messages>100",
      "chunks>2000",
    ]);
  });
  it("lets the process handle other work between batches", async () => {
    db.calls = [];
    db.messages = Array.from({ length: 300 }, (_, i) => ({ docId: 5000 + i, messageId: `n${i}`, text: "t" }));
    const order: string[] = [];
    scheduleEmbeddings(embedder);
    setImmediate(() =>
      order.push(`other work after ${db.calls.filter((c) => c.startsWith("store")).length} stores`),
    );
    await embeddingsSettled();
    order.push("embedding done");
    expect(order[0]).toMatch(/^other work after [1-4] stores$/);
    expect(order[1]).toBe("embedding done");
  });
});
