import { randomUUID } from "node:crypto";
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
