import { randomUUID } from "node:crypto";
import { vi } from "vitest";
import type { Db } from "@/lib/db/client";
import { readTurnEvents, type TurnEvent } from "./sse";

// Shared by the turn-pipeline integration tests: real database, real offline model, no mocks.

export async function createUserWithSession(db: Db, title = "test") {
  const user = await db.user.create({
    data: { email: `u-${randomUUID()}@example.test`, name: "Tester", passwordHash: "unused" },
  });
  const session = await db.chatSession.create({ data: { userId: user.id, title } });
  return { userId: user.id, sessionId: session.id };
}

export async function drain(stream: ReadableStream<Uint8Array>): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const event of readTurnEvents(stream)) events.push(event);
  return events;
}

export const answerOf = (events: TurnEvent[]) =>
  events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("");

export async function rowsForSession(db: Db, sessionId: string) {
  return {
    ChatSession: await db.chatSession.count({ where: { id: sessionId } }),
    ChatMessage: await db.chatMessage.count({ where: { sessionId } }),
    MemorySnapshot: await db.memorySnapshot.count({ where: { sessionId } }),
    TurnContext: await db.turnContext.count({ where: { sessionId } }),
    MemoryFact: await db.memoryFact.count({ where: { sourceSessionId: sessionId } }),
    Attachment: await db.attachment.count({ where: { message: { sessionId } } }),
  };
}

export interface RecordedEntry {
  source: string;
  role: string;
  seq?: number;
  preview: string;
}

export async function contextOf(db: Db, messageId: string) {
  const row = await db.turnContext.findUniqueOrThrow({ where: { messageId } });
  return { ...row, entries: row.entries as unknown as RecordedEntry[] };
}

const savedEnv = { ...process.env };
const openedApps: Db[] = [];

/**
 * Loads the app's modules afresh with `vars` added to the environment, exactly as a server started with those
 * variables would. Call `closeApps()` in afterEach.
 */
export async function loadApp(vars: Record<string, string>) {
  vi.resetModules();
  process.env = { ...savedEnv, ...vars };
  const { db } = await import("@/lib/db/client");
  const { startTurn } = await import("./turn");
  openedApps.push(db);
  const turn = async (sessionId: string, userId: string, content: string) =>
    drain(await startTurn({ sessionId, userId, input: { content } }));
  return { db, startTurn, turn };
}

export async function closeApps() {
  process.env = { ...savedEnv };
  await Promise.all(openedApps.splice(0).map((db) => db.$disconnect()));
}

/** The assistant message id a turn's meta event announced. */
export function answerIdOf(events: TurnEvent[]) {
  const meta = events.find((e) => e.type === "meta");
  if (meta?.type !== "meta") throw new Error("no meta event");
  return meta.assistantMessage.id;
}
