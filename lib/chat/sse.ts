import type { MemoryUsed } from "@/lib/context/memory-used";

/** The events of a turn's stream, in order: meta, (delta | tool_call | tool_result)*, then done or error. */
export type TurnEvent =
  | {
      type: "meta";
      userMessage: { id: string; seq: number; parentId: string | null; createdAt: string };
      assistantMessage: { id: string; seq: number; parentId: string | null; createdAt: string };
      model: string;
      offline: boolean;
    }
  | { type: "delta"; text: string }
  /** The model asked for a tool; the text streamed before it belongs to this step, not the answer. */
  | { type: "tool_call"; id: string; name: string; arguments: string }
  /** What the tool returned (JSON; `{ error }` when `ok` is false), as the model is sent it. */
  | { type: "tool_result"; id: string; name: string; ok: boolean; result: string }
  /**
   * The token counts are the provider's when it reports them, else counted with the model's tokenizer;
   * `recallTokens` is what the recalled-messages section of the context took (0: none; always set by the
   * commit, optional so older producers and readers of the event still fit). `memoryUsed`: what the answer used
   * beyond its window (null: only the window), as a page of messages says it. `model` is the registry id of the
   * model that wrote it (what the answer row stores) and `modelName` its name (both set by the commit).
   */
  | {
      type: "done";
      status: "complete" | "interrupted";
      promptTokens: number;
      completionTokens: number;
      recallTokens?: number;
      memoryUsed?: MemoryUsed | null;
      model?: string;
      modelName?: string;
    }
  | { type: "error"; code: string; message: string };

/** One event as text/event-stream text. */
export function frameOf(event: TurnEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Parses a text/event-stream body into TurnEvents; used by the browser and by tests. */
export async function* readTurnEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<TurnEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (data) yield JSON.parse(data) as TurnEvent;
      end = buffer.indexOf("\n\n");
    }
  }
}
