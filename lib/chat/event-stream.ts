import { frameOf, type TurnEvent } from "./sse";

const encoder = new TextEncoder();

/**
 * A text/event-stream body fed by `run`, which gets a `send` for events and a signal that fires when the client
 * goes away. Deltas that arrive within one turn of the event loop leave as one frame: a fast model would otherwise
 * cost a network write per word. Nothing waits longer than that, so tokens still stream as they arrive. The body
 * closes when `run` settles; `run` must not throw.
 */
export function eventStream(
  run: (send: (event: TurnEvent) => void, clientGone: AbortSignal) => Promise<void>,
): ReadableStream<Uint8Array> {
  const gone = new AbortController();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (frames: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(frames));
        } catch {
          open = false;
        }
      };
      let pending = "";
      let flushScheduled = false;
      const pendingFrame = () => {
        const frame = pending ? frameOf({ type: "delta", text: pending }) : "";
        pending = "";
        return frame;
      };
      const flush = () => {
        flushScheduled = false;
        const frame = pendingFrame();
        if (frame) write(frame);
      };
      const send = (event: TurnEvent) => {
        if (event.type === "delta") {
          pending += event.text;
          if (!flushScheduled) {
            flushScheduled = true;
            setImmediate(flush);
          }
          return;
        }
        // The deltas still waiting leave in the same write as the event after them (one chunk, not two).
        write(pendingFrame() + frameOf(event));
      };
      void run(send, gone.signal).finally(() => {
        flush();
        if (!open) return;
        open = false;
        try {
          controller.close();
        } catch {
          // already closed by a cancel
        }
      });
    },
    cancel() {
      gone.abort();
    },
  });
}
