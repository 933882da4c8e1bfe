import { describe, expect, it, vi } from "vitest";
import type { EmbeddedTable } from "@/lib/db/embeddings";

// The embedding job's order (docs/decisions/039-chunk-embeddings.md): batches of messages and of project file chunks
// take turns until neither has any left, each walked from its own cursor. The data layer is replaced by two queues.

type Row = { position: number; key: string | number; text: string };
const db = vi.hoisted(() => ({
  messages: [] as Row[],
  chunks: [] as Row[],
  calls: [] as string[],
}));

vi.mock("@/lib/db/embeddings", () => ({
  vectorStore: async () => ({ kind: "sqlite-vec" }),
  vectorsToMake: async ({ table, after, limit }: { table: EmbeddedTable; after: number; limit: number }) => {
    db.calls.push(`${table}>${after}`);
    return db[table].filter((r) => r.position > after).slice(0, limit);
  },
  storeVectors: async ({ table, items }: { table: EmbeddedTable; items: unknown[] }) => {
    db.calls.push(`store ${items.length} ${table}`);
  },
}));

const { embeddingsSettled, scheduleEmbeddings } = await import("./embedding-job");

const embedder = { model: "m", embed: async (texts: string[]) => texts.map(() => [1, 0]) };

describe("embedding job", () => {
  it("takes turns between 64 messages and 64 chunks, each from its own cursor, until both are done", async () => {
    db.messages = Array.from({ length: 100 }, (_, i) => ({ position: i + 1, key: `m${i}`, text: "t" }));
    db.chunks = Array.from({ length: 150 }, (_, i) => ({ position: 1000 + i, key: 1000 + i, text: "c" }));
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
    db.chunks.push({ position: 2000, key: 2000, text: "new" });
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
    db.messages = Array.from({ length: 300 }, (_, i) => ({ position: 5000 + i, key: `n${i}`, text: "t" }));
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
