import Module from "node:module";
import type { TurnInput } from "@/lib/chat/schemas";
import type { TurnEvent } from "@/lib/chat/sse";
import type { Db } from "@/lib/db/client";
import { BenchError } from "./http";
import { instrumentDriverAdapters, record, type Statement } from "./instrument";

// The turn pipeline run inside the benchmark process — the same lib/chat startTurn the route handler calls,
// with the same defaults — on an instrumented Prisma client, to count the statements and rows of one turn. The
// route adds one statement to this (requireUser's user lookup by primary key).

export interface Pipeline {
  db: Db;
  /** Runs one turn to the end of its stream; returns its wall time and the statements it sent. */
  turn(
    sessionId: string,
    userId: string,
    content: string,
    input?: TurnInput,
  ): Promise<{ ms: number; statements: Statement[]; events: TurnEvent[] }>;
  close(): Promise<void>;
}

/** `server-only` throws outside React Server Components; in this script its marker module is empty. */
function stubServerOnly() {
  const resolved = require.resolve("server-only");
  const stub = new Module(resolved);
  stub.filename = resolved;
  stub.loaded = true;
  stub.exports = {};
  require.cache[resolved] = stub;
}

/**
 * Loads lib/chat and lib/db for `databaseUrl`. lib/env.ts reads process.env once, when first imported, so this
 * must run before anything else imports the app's modules.
 */
export async function loadPipeline(
  databaseUrl: string,
  authSecret: string,
  defaults: string[],
): Promise<Pipeline> {
  for (const name of defaults) process.env[name] = "";
  process.env.DATABASE_URL = databaseUrl;
  process.env.AUTH_SECRET = authSecret;
  // The in-process statement counts check that the memory path costs the same at every H. Recall's statements
  // return what matches the question (bounded by its pool, not by H), so they change from turn to turn as earlier
  // turns add matching messages: W8 measures recall over HTTP, its integration tests check its plans.
  process.env.MEMORY_RECALL = "off";
  stubServerOnly();
  instrumentDriverAdapters();
  const { startTurn } = await import("@/lib/chat/turn");
  const { readTurnEvents } = await import("@/lib/chat/sse");
  const { db } = await import("@/lib/db/client");
  const { listServerConfigs } = await import("@/lib/mcp/servers");

  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const events: TurnEvent[] = [];
    for await (const event of readTurnEvents(stream)) events.push(event);
    return events;
  };

  return {
    db,
    async turn(sessionId, userId, content, input) {
      // A turn reads the MCP servers only when its process's copy is older than CONFIG_TTL_MS: refreshed here,
      // outside the counted turn, so that whether that read lands in a turn does not depend on the clock.
      await listServerConfigs();
      const started = performance.now();
      const { value: events, statements } = await record(async () =>
        drain(await startTurn({ sessionId, userId, input: input ?? { content } })),
      );
      const ms = performance.now() - started;
      const last = events.at(-1);
      if (last?.type !== "done" || last.status !== "complete") {
        throw new BenchError(`in-process turn in ${sessionId} did not complete: ${JSON.stringify(last)}`);
      }
      return { ms, statements, events };
    },
    close: () => db.$disconnect(),
  };
}
