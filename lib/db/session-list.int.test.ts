import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { databaseKind, db } from "./client";
import { decodeSessionListCursor, encodeSessionListCursor, type SessionListCursor } from "./cursor";
import { createProject, listProjectsByUserId, organizeSessionForUser } from "./projects";
import { createSession, listSessionsByUserId, type SessionListFilter } from "./sessions";

// The sidebar's lists (decision 036): pinned first, archived left out (and listed on their own), one project's or
// none's, walked page by page through the cursor's URL form as the route does.

const kind = databaseKind(env.DATABASE_URL);

afterAll(async () => {
  await db.$disconnect();
});

async function createUser() {
  return db.user.create({
    data: { email: `list-${randomUUID()}@example.test`, name: "List", passwordHash: "x" },
  });
}

/** Every page of the list, through the cursor's URL form. */
async function walk(userId: string, filter: SessionListFilter = {}, limit = 2) {
  const pages: { id: string; title: string }[][] = [];
  let cursor: SessionListCursor | undefined;
  do {
    const page = await listSessionsByUserId({ userId, cursor, limit, ...filter });
    pages.push(page.sessions);
    cursor = decodeSessionListCursor(encodeSessionListCursor(page.nextCursor));
  } while (cursor);
  return pages;
}

const titles = (pages: { title: string }[][]) => pages.flat().map((s) => s.title);

/** Conversations s0…s{n-1}, s0 the oldest, one second apart. */
async function seedSessions(userId: string, n: number, projectId: string | null = null) {
  const base = Date.now() - 100_000;
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(
      await db.chatSession.create({
        data: { userId, title: `s${i}`, projectId, updatedAt: new Date(base + i * 1000) },
      }),
    );
  }
  return rows;
}

describe(`the conversation list (${kind})`, () => {
  it("lists pinned conversations first, then the rest, newest first, each once across pages", async () => {
    const user = await createUser();
    const s = await seedSessions(user.id, 7);
    for (const i of [1, 4, 5]) {
      await organizeSessionForUser({ sessionId: s[i]?.id as string, userId: user.id, pinned: true });
    }
    // Pinning does not change updatedAt: order among the pinned is still newest first.
    for (const limit of [1, 2, 3, 10]) {
      expect(titles(await walk(user.id, {}, limit))).toEqual(["s5", "s4", "s1", "s6", "s3", "s2", "s0"]);
    }
    // A page that ends exactly at the last pinned one goes on with the rest.
    const first = await listSessionsByUserId({ userId: user.id, limit: 3 });
    expect(first.sessions.map((x) => x.title)).toEqual(["s5", "s4", "s1"]);
    expect(first.nextCursor).toMatchObject({ pinned: true });
  });

  it("leaves archived conversations out and lists them on their own; restoring brings one back", async () => {
    const user = await createUser();
    const s = await seedSessions(user.id, 4);
    await organizeSessionForUser({ sessionId: s[2]?.id as string, userId: user.id, archived: true });
    await organizeSessionForUser({
      sessionId: s[0]?.id as string,
      userId: user.id,
      archived: true,
      pinned: true,
    });
    expect(titles(await walk(user.id))).toEqual(["s3", "s1"]);
    expect(titles(await walk(user.id, { archived: true }, 1))).toEqual(["s2", "s0"]);
    await organizeSessionForUser({ sessionId: s[2]?.id as string, userId: user.id, archived: false });
    expect(titles(await walk(user.id))).toEqual(["s3", "s2", "s1"]);
    expect(titles(await walk(user.id, { archived: true }))).toEqual(["s0"]);
  });

  it("lists one project's conversations, or those outside any project; counts only listed ones", async () => {
    const user = await createUser();
    const project = await createProject({ userId: user.id, name: "A" });
    const inside = await seedSessions(user.id, 3, project.id);
    await seedSessions(user.id, 2);
    await organizeSessionForUser({ sessionId: inside[0]?.id as string, userId: user.id, pinned: true });
    await organizeSessionForUser({ sessionId: inside[1]?.id as string, userId: user.id, archived: true });
    expect(titles(await walk(user.id, { projectId: project.id }))).toEqual(["s0", "s2"]);
    expect(titles(await walk(user.id, { projectId: null }))).toEqual(["s1", "s0"]);
    expect(titles(await walk(user.id))).toEqual(["s0", "s2", "s1", "s0"]);
    expect(titles(await walk(user.id, { projectId: project.id, archived: true }))).toEqual(["s1"]);
    const [listed] = await listProjectsByUserId({ userId: user.id });
    expect(listed).toMatchObject({ id: project.id, sessionCount: 2, factCount: 0 });

    // Another user's project lists nothing of theirs.
    const other = await createUser();
    expect(titles(await walk(other.id, { projectId: project.id }))).toEqual([]);
  });

  it("starts a conversation in one of the user's projects; another user's project is a 404", async () => {
    const user = await createUser();
    const project = await createProject({ userId: user.id, name: "A" });
    const session = await createSession({ userId: user.id, title: "t", projectId: project.id });
    expect(session.projectId).toBe(project.id);
    const other = await createUser();
    await expect(
      createSession({ userId: other.id, title: "t", projectId: project.id }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await db.chatSession.count({ where: { userId: other.id } })).toBe(0);
  });

  it("rejects a cursor that is not one", () => {
    expect(() => decodeSessionListCursor("bm90LWpzb24")).toThrow();
    expect(() =>
      decodeSessionListCursor(
        Buffer.from(JSON.stringify(["2026-01-01T00:00:00Z", "x", 2])).toString("base64url"),
      ),
    ).toThrow();
  });
});
