import { describe, expect, it } from "vitest";
import { type SseEvent, sseEvents } from "./sse-events";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function reads(chunks: string[]): Promise<SseEvent[][]> {
  const out: SseEvent[][] = [];
  for await (const events of sseEvents(body(chunks))) out.push(events);
  return out;
}

describe("sseEvents", () => {
  it("gives the events each read completes together, across chunk boundaries", async () => {
    expect(await reads(['data: {"a":1}\n\ndata: {"a"', ":2}\n\ndata: [DONE]\n\n"])).toEqual([
      [{ event: null, data: '{"a":1}' }],
      [
        { event: null, data: '{"a":2}' },
        { event: null, data: "[DONE]" },
      ],
    ]);
  });

  it("reads event names, multi-line data, comments and every line ending, a \\r\\n split between reads too", async () => {
    expect(
      await reads([
        ": keep-alive\r\n\r\nevent: response.created\r",
        '\ndata: {"x":\r\ndata:1}\r\n\r\ndata: end',
      ]),
    ).toEqual([[{ event: "response.created", data: '{"x":\n1}' }], [{ event: null, data: "end" }]]);
    expect(await reads(["data: a\r\rdata: b\n\n"])).toEqual([
      [
        { event: null, data: "a" },
        { event: null, data: "b" },
      ],
    ]);
  });

  it("gives nothing for a body without data fields (a reply that is not a stream)", async () => {
    expect(await reads(['{"choices":[]}'])).toEqual([]);
  });

  it("cancels the body when the reader stops early", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const events of sseEvents(stream)) {
      expect(events).toEqual([{ event: null, data: "1" }]);
      break;
    }
    expect(cancelled).toBe(true);
  });
});
