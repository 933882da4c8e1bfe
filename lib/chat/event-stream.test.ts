import { describe, expect, it, vi } from "vitest";
import { DELTA_WINDOW_MS, eventStream } from "./event-stream";
import { readTurnEvents, type TurnEvent } from "./sse";

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(decoder.decode(r.value));
  return chunks;
}

const meta: TurnEvent = {
  type: "meta",
  userMessage: { id: "q", seq: 1, parentId: null, createdAt: "2026-01-01T00:00:00.000Z" },
  assistantMessage: { id: "a", seq: 2, parentId: "q", createdAt: "2026-01-01T00:00:00.000Z" },
  model: "m",
  offline: true,
};

describe("eventStream", () => {
  it("sends deltas of one event-loop turn as one frame, and pending deltas with the event after them in one write", async () => {
    const stream = eventStream(async (send) => {
      send(meta);
      send({ type: "delta", text: "Hel" });
      send({ type: "delta", text: "lo" });
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      send({ type: "delta", text: " wor" });
      send({ type: "delta", text: "ld" });
      send({ type: "done", status: "complete", promptTokens: 3, completionTokens: 2 });
    });
    const chunks = await chunksOf(stream);
    expect(chunks.map((c) => [...c.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]))).toEqual([
      ["meta"],
      ["delta"],
      ["delta", "done"],
    ]);
    const events: TurnEvent[] = [];
    for await (const e of readTurnEvents(new Blob(chunks).stream() as unknown as ReadableStream<Uint8Array>))
      events.push(e);
    expect(events).toEqual([
      meta,
      { type: "delta", text: "Hello" },
      { type: "delta", text: " world" },
      { type: "done", status: "complete", promptTokens: 3, completionTokens: 2 },
    ]);
  });

  it("gathers a streaming answer's deltas for DELTA_WINDOW_MS into one write, after a quiet spell sends at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "setImmediate", "performance"] });
    try {
      let send: (event: TurnEvent) => void = () => {};
      let end = () => {};
      const stream = eventStream((s) => {
        send = s;
        return new Promise<void>((resolve) => {
          end = resolve;
        });
      });
      const chunks: string[] = [];
      const decoder = new TextDecoder();
      const reader = stream.getReader();
      const reading = (async () => {
        for (let r = await reader.read(); !r.done; r = await reader.read())
          chunks.push(decoder.decode(r.value));
      })();
      const texts = () => chunks.map((c) => [...c.matchAll(/"text":"(\w*)"/g)].map((m) => m[1]).join("|"));
      send({ type: "delta", text: "a" });
      await vi.advanceTimersByTimeAsync(0);
      expect(texts()).toEqual(["a"]);
      for (const text of ["b", "c", "d", "e"]) {
        await vi.advanceTimersByTimeAsync(20);
        send({ type: "delta", text });
      }
      expect(texts()).toEqual(["a"]);
      await vi.advanceTimersByTimeAsync(DELTA_WINDOW_MS);
      expect(texts()).toEqual(["a", "bcde"]);
      await vi.advanceTimersByTimeAsync(2 * DELTA_WINDOW_MS);
      send({ type: "delta", text: "f" });
      await vi.advanceTimersByTimeAsync(0);
      expect(texts()).toEqual(["a", "bcde", "f"]);
      end();
      await vi.runAllTimersAsync();
      await reading;
      expect(chunks).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("flushes deltas left when run ends without a final event", async () => {
    const stream = eventStream(async (send) => {
      send({ type: "delta", text: "partial" });
    });
    expect(await chunksOf(stream)).toEqual(['event: delta\ndata: {"type":"delta","text":"partial"}\n\n']);
  });

  it("tells run when the client goes away", async () => {
    let gone: AbortSignal | undefined;
    const stream = eventStream(async (_send, clientGone) => {
      gone = clientGone;
      await new Promise((r) => clientGone.addEventListener("abort", r));
    });
    expect(gone?.aborted).toBe(false);
    await stream.cancel();
    expect(gone?.aborted).toBe(true);
  });
});
