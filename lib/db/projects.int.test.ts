import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { loadLongTermMemory } from "@/lib/chat/long-term";
import { db } from "./client";
import { rememberFact } from "./memories";
import { createProject, deleteProjectForUser, moveFactForUser, organizeSessionForUser } from "./projects";
import { withTransaction } from "./transaction";

afterAll(async () => {
  await db.$disconnect();
});

async function seed() {
  const user = await db.user.create({
    data: { email: `p-${randomUUID()}@example.test`, name: "P", passwordHash: "x" },
  });
  const project = await createProject({ userId: user.id, name: "Client A", instructions: "Be brief." });
  const inside = await db.chatSession.create({
    data: { userId: user.id, title: "in", projectId: project.id },
  });
  const outside = await db.chatSession.create({ data: { userId: user.id, title: "out" } });
  const msg = async (sessionId: string) =>
    db.chatMessage.create({ data: { sessionId, seq: 1, role: "user", text: "x" } });
  return { user, project, inside, outside, inMsg: await msg(inside.id), outMsg: await msg(outside.id) };
}

const remember = (userId: string, sessionId: string, messageId: string, text: string) =>
  withTransaction((tx) =>
    rememberFact(
      { userId, text, subject: null, sourceSessionId: sessionId, sourceMessageId: messageId },
      { tx },
    ),
  );

describe("projects", () => {
  it("a fact learned in a project is seen only there; global facts everywhere; moving changes that", async () => {
    const s = await seed();
    const { fact } = await remember(s.user.id, s.inside.id, s.inMsg.id, "Project codename is Falcon");
    await remember(s.user.id, s.outside.id, s.outMsg.id, "User likes tea");
    expect(fact.projectId).toBe(s.project.id);
    const texts = async (projectId: string | null) =>
      (await loadLongTermMemory({ userId: s.user.id, projectId })).facts.map((f) => f.text).sort();
    expect(await texts(s.project.id)).toEqual(["Project codename is Falcon", "User likes tea"]);
    expect(await texts(null)).toEqual(["User likes tea"]);
    const other = await createProject({ userId: s.user.id, name: "B" });
    expect(await texts(other.id)).toEqual(["User likes tea"]);
    await moveFactForUser({ userId: s.user.id, factId: fact.id, projectId: null });
    expect(await texts(null)).toEqual(["Project codename is Falcon", "User likes tea"]);
  });

  it("another user's project is a 404 for moves", async () => {
    const a = await seed();
    const b = await seed();
    await expect(
      organizeSessionForUser({ sessionId: a.outside.id, userId: a.user.id, projectId: b.project.id }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("deleting a project deletes its conversations and facts with a receipt, or keeps them", async () => {
    const s = await seed();
    await remember(s.user.id, s.inside.id, s.inMsg.id, "Falcon ships in May");
    const kept = await deleteProjectForUser({ projectId: s.project.id, userId: s.user.id, keep: true });
    expect(kept.moved).toEqual({ ChatSession: 1, MemoryFact: 1 });
    expect(await db.chatSession.count({ where: { id: s.inside.id } })).toBe(1);

    const t = await seed();
    await remember(t.user.id, t.inside.id, t.inMsg.id, "Falcon ships in June");
    const gone = await deleteProjectForUser({ projectId: t.project.id, userId: t.user.id, keep: false });
    expect(gone.deleted).toMatchObject({ Project: 1, ChatSession: 1, ChatMessage: 1, MemoryFact: 1 });
    expect(await db.chatSession.count({ where: { id: t.inside.id } })).toBe(0);
    expect(await db.chatSession.count({ where: { id: t.outside.id } })).toBe(1);
  });
});
