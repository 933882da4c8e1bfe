import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { autoTitle } from "@/lib/chat/auto-title";
import { createModel } from "@/lib/llm/client";
import { db } from "./client";
import { setAutoTitle } from "./titles";

// Automatic titles on SQLite and PostgreSQL: written with one conditional update, so a conversation the
// user renamed keeps its name, whenever the automatic one arrives.

afterAll(async () => {
  await db.$disconnect();
});

async function conversation({ title, titleByUser = false }: { title: string; titleByUser?: boolean }) {
  const id = randomUUID().slice(0, 8);
  const user = await db.user.create({
    data: { email: `titles-${id}@test.recall`, name: `titles ${id}`, passwordHash: "x" },
  });
  return db.chatSession.create({ data: { userId: user.id, title, titleByUser }, select: { id: true } });
}

const titleOf = async (id: string) =>
  db.chatSession.findUniqueOrThrow({ where: { id }, select: { title: true, titleByUser: true } });

describe("setAutoTitle", () => {
  it("replaces the first message's title while the user has not renamed the conversation", async () => {
    const { id } = await conversation({ title: "Please explain how binary search works on sorted arrays" });
    expect(await setAutoTitle({ sessionId: id, title: "Binary search" })).toBe(true);
    // Still not the user's: a later automatic title may replace it again.
    expect(await titleOf(id)).toEqual({ title: "Binary search", titleByUser: false });
  });

  it("never overwrites a title the user gave", async () => {
    const { id } = await conversation({ title: "My own name", titleByUser: true });
    expect(await setAutoTitle({ sessionId: id, title: "Binary search" })).toBe(false);
    expect(await titleOf(id)).toEqual({ title: "My own name", titleByUser: true });
  });

  it("writes nothing for a conversation that is gone", async () => {
    expect(await setAutoTitle({ sessionId: "no-such-session", title: "Anything" })).toBe(false);
  });
});

describe("autoTitle with the offline model", () => {
  const model = createModel({ style: "chat" });

  it("names the conversation from its first question", async () => {
    const { id } = await conversation({ title: "Please explain how binary search works on sorted arrays" });
    const written = await autoTitle(
      {
        sessionId: id,
        question: "Please explain how binary search works on sorted arrays",
        answer: "It halves.",
      },
      model,
    );
    expect(written).toBe(true);
    expect((await titleOf(id)).title).toBe("Explain how binary search works");
  });

  it("leaves a renamed conversation alone", async () => {
    const { id } = await conversation({ title: "Kept", titleByUser: true });
    expect(await autoTitle({ sessionId: id, question: "My name is Ada.", answer: "Hi Ada." }, model)).toBe(
      false,
    );
    expect((await titleOf(id)).title).toBe("Kept");
  });
});
