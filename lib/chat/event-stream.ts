import { frameOf, type TurnEvent } from "./sse";

const encoder = new TextEncoder();

/**
 * How long an answer's deltas are gathered into one write once it is streaming: a model at 40 tokens/s would
 * otherwise cost every stream 40 network writes a second, which at a thousand open answers is most of the
 * server's CPU. The first delta after a quiet spell still leaves on the next turn of the event loop.
 */
export const DELTA_WINDOW_MS = 100;

/**
 * A text/event-stream body fed by `run`, which gets a `send` for events and a signal that fires when the client
 * goes away. Deltas leave as one frame per write: those of one event-loop turn together, and while the answer
 * streams, those of the next DELTA_WINDOW_MS together; any other event takes the deltas still waiting with it, in
 * one write. The body closes when `run` settles; `run` must not throw.
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
      let scheduled = false;
      let lastDeltaAt = Number.NEGATIVE_INFINITY;
      const pendingFrame = () => {
        const frame = pending ? frameOf({ type: "delta", text: pending }) : "";
        pending = "";
        return frame;
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        scheduled = false;
        clearTimeout(timer);
        const frame = pendingFrame();
        if (!frame) return;
        lastDeltaAt = performance.now();
        write(frame);
      };
      const send = (event: TurnEvent) => {
        if (event.type === "delta") {
          pending += event.text;
          if (!scheduled) {
            scheduled = true;
            // Each stream its own timer: a thousand streams' writes spread over the window, not all in one callback.
            if (performance.now() - lastDeltaAt >= DELTA_WINDOW_MS) setImmediate(flush);
            else timer = setTimeout(flush, lastDeltaAt + DELTA_WINDOW_MS - performance.now());
          }
          return;
        }
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
