// The events of a provider's text/event-stream body, read without the SDK's stream: the SDK decodes every event
// through several async iterators of its own, which at a thousand streaming answers was the server's largest cost
// after GC (docs/decisions/006, W9). Here one read of the body is one step, and its events come together.

export interface SseEvent {
  event: string | null;
  data: string;
}

function parse(block: string): SseEvent | null {
  if (block.startsWith("data: ") && !block.includes("\n")) return { event: null, data: block.slice(6) };
  let event: string | null = null;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  return data.length ? { event, data: data.join("\n") } : null;
}

/**
 * The events of an SSE body (any line ending: \n, \r\n, \r), as arrays: each holds the events completed by one
 * read of the body, in order. Ends with the body; a body that errors (an abort) throws; stopping early cancels it.
 */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (buffer.includes("\r")) {
        // A \r at the end may be the first half of a \r\n.
        const cut = !done && buffer.endsWith("\r") ? buffer.length - 1 : buffer.length;
        buffer = buffer.slice(0, cut).replace(/\r\n?/g, "\n") + buffer.slice(cut);
      }
      const events: SseEvent[] = [];
      let start = 0;
      for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n", start)) {
        const event = parse(buffer.slice(start, end));
        if (event) events.push(event);
        start = end + 2;
      }
      buffer = buffer.slice(start);
      if (done) {
        const last = parse(buffer);
        if (last) events.push(last);
      }
      if (events.length) yield events;
      if (done) {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => {});
  }
}
