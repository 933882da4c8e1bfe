import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { deleteUserForAdmin } from "./admin-users";
import {
  deleteUnsentAttachmentForUser,
  putAttachmentBlob,
  unsafeDeleteUnsentAttachmentsBefore,
} from "./attachments";
import { databaseKind, db, sqlitePath } from "./client";
import { deleteFactForUser } from "./memories";
import { createProjectFile, deleteProjectFileForUser } from "./project-files";
import { createProject } from "./projects";
import { runRetentionRound } from "./retention";
import { indexMessages } from "./search";
import { deleteSessionForUser } from "./sessions";

// Every kind of deletion on the run's database: a unique marker written into a conversation's title, a message, the
// search index, an attached text file (name and bytes) and a fact, then deleted. On SQLite the raw bytes of the
// database file and its -wal file are read afterwards; on both databases no row may still hold the marker.

const kind = databaseKind(env.DATABASE_URL);
const file = kind === "sqlite" ? sqlitePath(env.DATABASE_URL) : "";

const newMarker = () => `zq${randomBytes(8).toString("hex")}`;

/**
 * How often `marker` occurs in the database file and its -wal file (SQLite; 0 on PostgreSQL). Its tail is looked
 * for: FTS5 stores a term after the prefix it shares with the term before it, and every marker starts alike.
 */
function onDisk(marker: string): number {
  if (kind !== "sqlite") return 0;
  const needle = Buffer.from(marker.slice(-12));
  let count = 0;
  for (const path of [file, `${file}-wal`]) {
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count++;
  }
  return count;
}

/** Rows that still hold `marker`, on either database. */
async function inRows(marker: string): Promise<number> {
  const counts = await Promise.all([
    db.chatSession.count({ where: { title: { contains: marker } } }),
    db.chatMessage.count({ where: { text: { contains: marker } } }),
    db.memoryFact.count({ where: { text: { contains: marker } } }),
    db.attachment.count({ where: { name: { contains: marker } } }),
  ]);
  return counts.reduce((a, b) => a + b, 0);
}

async function seed(marker: string, { updatedAt }: { updatedAt?: Date } = {}) {
  const user = await db.user.create({
    data: { email: `d-${randomUUID()}@example.test`, name: "Deleter", passwordHash: "unused" },
  });
  const session = await db.chatSession.create({
    data: { userId: user.id, title: `title ${marker}`, lastSeq: 1, ...(updatedAt && { updatedAt }) },
  });
  const message = await db.chatMessage.create({
    data: { sessionId: session.id, seq: 1, role: "user", text: `please remember ${marker} for me` },
  });
  await indexMessages(
    {
      docs: [
        {
          id: message.id,
          sessionId: session.id,
          userId: user.id,
          role: "user",
          text: message.text,
          createdAt: message.createdAt,
        },
      ],
      fresh: true,
    },
    { tx: db },
  );
  const fact = await db.memoryFact.create({
    data: {
      userId: user.id,
      text: `The user's code word is ${marker}`,
      subject: null,
      sourceSessionId: session.id,
      sourceMessageId: message.id,
    },
  });
  const text = Buffer.from(`notes: ${marker}\n`.repeat(20));
  const sent = await db.attachment.create({
    data: {
      userId: user.id,
      messageId: message.id,
      kind: "text",
      name: `${marker}.txt`,
      mime: "text/plain",
      bytes: text.length,
    },
  });
  await putAttachmentBlob({ attachmentId: sent.id, data: text, thumbnail: null });
  const unsent = await db.attachment.create({
    data: {
      userId: user.id,
      kind: "text",
      name: `unsent-${marker}.txt`,
      mime: "text/plain",
      bytes: text.length,
    },
  });
  await putAttachmentBlob({ attachmentId: unsent.id, data: text, thumbnail: null });
  return { userId: user.id, sessionId: session.id, factId: fact.id, unsentId: unsent.id };
}

/** Seeds under a fresh marker, checks it reached the files, runs `remove`, and returns where the marker remains. */
async function afterDeletion(
  remove: (seeded: Awaited<ReturnType<typeof seed>>, marker: string) => Promise<unknown>,
  options?: { updatedAt?: Date },
) {
  const marker = newMarker();
  const seeded = await seed(marker, options);
  if (kind === "sqlite") expect(onDisk(marker)).toBeGreaterThan(0);
  expect(await inRows(marker)).toBeGreaterThan(0);
  await remove(seeded, marker);
  return { disk: onDisk(marker), rows: await inRows(marker) };
}

describe(`deleted bytes leave the database files (${kind})`, () => {
  it("a conversation: title, message, search index, attached file and fact", async () => {
    const left = await afterDeletion(async ({ userId, sessionId, unsentId }) => {
      await deleteUnsentAttachmentForUser({ id: unsentId, userId });
      await deleteSessionForUser({ sessionId, userId });
    });
    expect(left).toEqual({ disk: 0, rows: 0 });
  });

  it("a user, with everything they own", async () => {
    const admin = await db.user.create({
      data: { email: `a-${randomUUID()}@example.test`, name: "Admin", passwordHash: "unused", role: "ADMIN" },
    });
    const left = await afterDeletion(({ userId }) => deleteUserForAdmin({ actorId: admin.id, userId }));
    expect(left).toEqual({ disk: 0, rows: 0 });
  });

  it("a fact", async () => {
    const marker = newMarker();
    const { userId, factId } = await seed(newMarker());
    await db.memoryFact.update({
      where: { id: factId },
      data: { text: `The user's code word is ${marker}` },
    });
    if (kind === "sqlite") expect(onDisk(marker)).toBeGreaterThan(0);
    await deleteFactForUser({ userId, factId });
    expect({ disk: onDisk(marker), rows: await inRows(marker) }).toEqual({ disk: 0, rows: 0 });
  });

  it("an unsent upload the user removes, and one the cleanup removes", async () => {
    for (const remove of [
      ({ userId, unsentId }: { userId: string; unsentId: string }) =>
        deleteUnsentAttachmentForUser({ id: unsentId, userId }),
      () => unsafeDeleteUnsentAttachmentsBefore({ before: new Date(Date.now() + 60_000) }),
    ]) {
      const marker = newMarker();
      const seeded = await seed(newMarker());
      const text = Buffer.from(`unsent: ${marker}\n`.repeat(20));
      await db.attachment.update({ where: { id: seeded.unsentId }, data: { name: `${marker}.txt` } });
      await db.attachmentBlob.update({ where: { attachmentId: seeded.unsentId }, data: { data: text } });
      if (kind === "sqlite") expect(onDisk(marker)).toBeGreaterThan(0);
      await remove(seeded);
      expect(await db.attachment.count({ where: { id: seeded.unsentId } })).toBe(0);
      expect({ disk: onDisk(marker), rows: await inRows(marker) }).toEqual({ disk: 0, rows: 0 });
    }
  });

  it("a project file: its chunks' terms too", async () => {
    const marker = newMarker();
    const { userId } = await seed(newMarker());
    const project = await createProject({ userId, name: "Files" });
    const file = await createProjectFile({
      userId,
      projectId: project.id,
      name: "notes.md",
      mime: "text/markdown",
      bytes: 100,
      chunks: [`The delivery code of the warehouse is ${marker} since March.`],
    });
    if (kind === "sqlite") expect(onDisk(marker)).toBeGreaterThan(0);
    await deleteProjectFileForUser({ userId, projectId: project.id, fileId: file.id });
    expect(await db.projectFileChunk.count({ where: { fileId: file.id } })).toBe(0);
    expect(onDisk(marker)).toBe(0);
  });

  it("a conversation retention deletes", async () => {
    const longAgo = new Date(Date.now() - 400 * 24 * 60 * 60 * 1000);
    const left = await afterDeletion(
      async ({ sessionId }) => {
        const round = await runRetentionRound({ days: 365, limit: 10_000 });
        expect(round.receipts.map((r) => r.sessionId)).toContain(sessionId);
        // The sent and unsent uploads of an old conversation: the unsent one is the cleanup's.
        await unsafeDeleteUnsentAttachmentsBefore({ before: new Date(Date.now() + 60_000) });
      },
      { updatedAt: longAgo },
    );
    expect(left).toEqual({ disk: 0, rows: 0 });
  });
});
