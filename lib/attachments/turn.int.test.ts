import { randomBytes, randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  answerIdOf,
  answerOf,
  closeApps,
  contextOf,
  createUserWithSession,
  drain,
  loadApp,
} from "@/lib/chat/test-helpers";

// Attachments inside real turns, on this run's database and the offline model, with both model APIs.
// Needs lib/chat/turn.ts to claim the turn's attachments and resolve their references before the model call
// (lib/attachments/claim.ts, lib/attachments/resolve.ts); until then it fails.

afterEach(closeApps);

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp(vars);
  const { uploadAttachment } = await import("./upload");
  /** Stores a file for `userId` as POST /api/attachments would. */
  const upload = async (userId: string, data: Uint8Array | string, name: string) => {
    const form = new FormData();
    form.append("file", new Blob([typeof data === "string" ? data : new Uint8Array(data)]), name);
    const req = new Request("http://127.0.0.1/api/attachments", { method: "POST", body: form });
    return uploadAttachment({ userId, req });
  };
  const send = async (sessionId: string, userId: string, content: string, attachments?: string[]) =>
    drain(await loaded.startTurn({ sessionId, userId, input: { content, attachments } }));
  return { ...loaded, upload, send };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#2a7f3b" } })
    .png()
    .toBuffer();

/** A photo-like JPEG (noise compresses as badly as a photo does). */
const photo = (width: number, height: number) =>
  sharp(
    randomBytes(width * height * 3).map((v) => 96 + (v & 63)),
    { raw: { width, height, channels: 3 } },
  )
    .jpeg({ quality: 90 })
    .toBuffer();

/** The bytes and decoded size of a base64 data URL. */
async function decoded(url: string) {
  const data = Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
  const meta = await sharp(data).metadata();
  return { bytes: data.byteLength, format: meta.format, width: meta.width, height: meta.height };
}

describe.each(["chat", "responses"] as const)("a turn with attachments (%s API)", (style) => {
  it("sends the picture, keeps only its reference in memory and the trace, and answers its size two turns later", async () => {
    const a = await app({ OPENAI_API_STYLE: style });
    const { userId, sessionId } = await createUserWithSession(a.db);
    const image = await a.upload(userId, await png(64, 48), "garden.png");
    const notes = await a.upload(userId, "milk\neggs\n", "list.txt");

    const first = await a.send(sessionId, userId, "Here is my garden", [image.id, notes.id]);
    expect(answerOf(first)).toContain("I see 1 image: a PNG image, 64 × 48 pixels.");
    expect(answerOf(first)).toContain("I read 1 text file: list.txt");
    const question = await a.db.chatMessage.findFirstOrThrow({ where: { sessionId, seq: 1 } });
    expect(question.text).toBe("Here is my garden");
    expect(await a.db.attachment.count({ where: { messageId: question.id } })).toBe(2);

    // The recorded context counts the image by OpenAI's rule (64 × 48: one tile, 255 tokens) and holds no bytes.
    const context = await contextOf(a.db, answerIdOf(first));
    const current = context.entries.find((e) => e.source === "current") as { tokens?: number } | undefined;
    expect(current?.tokens).toBeGreaterThan(255);
    expect(JSON.stringify(context.entries)).not.toContain("base64");

    await a.send(sessionId, userId, "The weather is lovely today.");
    const third = await a.send(sessionId, userId, "What size was the picture I sent?");
    expect(answerOf(third)).toBe("The picture you sent is a PNG image, 64 × 48 pixels.");
    expect(await contextOf(a.db, answerIdOf(third)).then((c) => c.entries.map((e) => e.seq))).toContain(1);

    const snapshot = await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } });
    const stored = JSON.stringify(snapshot.items);
    expect(stored).toContain(`attachment:${image.id}?w=64&h=48`);
    expect(stored).toContain("--- Attached file: list.txt ---");
    expect(stored).not.toContain("base64");
  });

  it("sends a photo at the model's working resolution, named with its original facts, scaled once", async () => {
    const a = await app({ OPENAI_API_STYLE: style });
    const resolve = await import("./resolve");
    const modelImage = await import("./model-image");
    const { databaseStore } = await import("./store");
    const sent = vi.spyOn(resolve, "resolveAttachmentRefs");
    const scaled = vi.spyOn(modelImage, "toModelImage");
    const reads = vi.spyOn(databaseStore, "get");
    const { userId, sessionId } = await createUserWithSession(a.db);
    const image = await a.upload(userId, await photo(2400, 1800), "holiday.jpg");

    const first = await a.send(sessionId, userId, "From my holiday", [image.id]);
    expect(answerOf(first)).toContain("I see 1 image: a JPEG image, 2400 × 1800 pixels.");
    // What the model got: the photo at 1024 × 768, and a line with what the user attached.
    const sentItems = await sent.mock.results[0]?.value;
    const question = sentItems?.find((item: { role: string }) => item.role === "user");
    expect(question?.text).toBe(
      "From my holiday\n\n[Attached image: holiday.jpg, JPEG, 2400 × 1800 pixels, shown at 1024 × 768]",
    );
    const picture = await decoded(question?.imageUrls?.[0] ?? "");
    expect(picture).toMatchObject({ format: "jpeg", width: 1024, height: 768 });
    expect(picture.bytes * 4).toBeLessThan(image.bytes);

    // Two more turns with the photo in the window: neither reads nor scales it again.
    await a.send(sessionId, userId, "The weather is lovely today.");
    const third = await a.send(sessionId, userId, "What size was the picture I sent?");
    expect(answerOf(third)).toBe("The picture you sent is a JPEG image, 2400 × 1800 pixels.");
    expect(sent).toHaveBeenCalledTimes(3);
    expect(scaled).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(resolve.sentImageCacheStats()).toEqual({
      entries: 1,
      bytes: (question?.imageUrls?.[0] ?? "").length,
    });

    // Memory and the recorded context hold the reference only: no bytes, and the line is made for each call.
    const items = (await a.db.memorySnapshot.findUniqueOrThrow({ where: { sessionId } })).items;
    expect((items as unknown[])[0]).toEqual({
      seq: 1,
      role: "user",
      text: "From my holiday",
      imageUrls: [`attachment:${image.id}?w=2400&h=1800`],
    });
    expect(JSON.stringify(items)).not.toContain("base64");
    const trace = JSON.stringify((await contextOf(a.db, answerIdOf(third))).entries);
    expect(trace).not.toContain("base64");
  });
});

describe("attachments and the memory window", () => {
  it("a picture the window dropped is not seen by the model, but stays in the history", async () => {
    const a = await app({ MEMORY_MAX_MESSAGES: "2" });
    const { userId, sessionId } = await createUserWithSession(a.db);
    const image = await a.upload(userId, await png(30, 20), "p.png");
    await a.send(sessionId, userId, "A picture", [image.id]);
    await a.send(sessionId, userId, "Something else");
    const asked = await a.send(sessionId, userId, "What size was the picture I sent?");
    expect(answerOf(asked)).toMatch(/^I can't see any picture from you/);
    const row = await a.db.attachment.findUniqueOrThrow({
      where: { id: image.id },
      include: { message: true },
    });
    expect(row.message?.seq).toBe(1);
  });

  it("a message may be only a picture; a claim that fails stores nothing (422)", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    const other = await a.db.user.create({
      data: { email: `o-${randomUUID()}@example.test`, name: "O", passwordHash: "x" },
    });
    const theirs = await a.upload(other.id, "not yours", "x.txt");
    await expect(a.send(sessionId, userId, "look", [theirs.id])).rejects.toMatchObject({
      code: "validation_failed",
      status: 422,
    });
    expect(await a.db.chatMessage.count({ where: { sessionId } })).toBe(0);

    const image = await a.upload(userId, await png(8, 8), "tiny.png");
    const events = await a.send(sessionId, userId, "", [image.id]);
    expect(answerOf(events)).toBe("I see 1 image: a PNG image, 8 × 8 pixels.");
  });
});
