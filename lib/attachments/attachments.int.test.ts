import { randomUUID } from "node:crypto";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { historyOf } from "@/lib/chat/items";
import { closeApps, createUserWithSession, loadApp } from "@/lib/chat/test-helpers";
import { rowsReferring, zeroEverywhere } from "@/lib/db/test-rows";

// Attachments against the real database of this run (SQLite or PostgreSQL): uploads through the route handlers
// (real CSRF check, signed-in users mocked at the token), the rows and bytes they leave, the claim a turn makes,
// what memory and the model are sent, and what deleting a conversation or a user leaves behind.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

afterEach(closeApps);

const BASE = "http://127.0.0.1:3000";

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp(vars);
  const { sessionClaims } = await import("@/lib/auth/session-token");
  const upload = await import("@/app/api/attachments/route");
  const file = await import("@/app/api/attachments/[id]/route");
  const { claimAttachments } = await import("./claim");
  const { resolveAttachmentRefs } = await import("./resolve");
  const { deleteUnsentAttachments } = await import("./cleanup");
  const { withTransaction } = await import("@/lib/db/transaction");
  const { getHistoryTail } = await import("@/lib/db/messages");
  const { env } = await import("@/lib/env");
  const signIn = (userId: string | null) =>
    vi.mocked(sessionClaims).mockResolvedValue(userId ? { uid: userId, ver: 0, sid: null } : null);
  const ctx = (id: string) => ({ params: Promise.resolve({ id }) });

  /** POST /api/attachments as `userId` with one file. */
  async function post(userId: string, bytes: Uint8Array | string, name: string) {
    signIn(userId);
    const form = new FormData();
    form.append("file", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), name);
    const res = await upload.POST(
      new Request(`${BASE}/api/attachments`, {
        method: "POST",
        headers: { origin: BASE, host: "127.0.0.1:3000" },
        body: form,
      }),
      { params: Promise.resolve({}) },
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { id: string } };
  }

  async function get(userId: string, id: string, query = "", headers: Record<string, string> = {}) {
    signIn(userId);
    return file.GET(new Request(`${BASE}/api/attachments/${id}${query}`, { headers }), ctx(id));
  }

  async function remove(userId: string, id: string) {
    signIn(userId);
    return file.DELETE(
      new Request(`${BASE}/api/attachments/${id}`, {
        method: "DELETE",
        headers: { origin: BASE, host: "127.0.0.1:3000" },
      }),
      ctx(id),
    );
  }

  return {
    ...loaded,
    env,
    post,
    get,
    remove,
    claimAttachments,
    resolveAttachmentRefs,
    deleteUnsentAttachments,
    withTransaction,
    getHistoryTail,
  };
}

async function png(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: "#4080c0" } })
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: "secret-exif-marker" } } })
    .toBuffer();
}

/** A real decompression bomb: a 1-bit 20000 × 20000 PNG of zeros, a few dozen KB that decode to 400 megapixels. */
function bombPng(): Buffer {
  const side = 20000;
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + side / 8) * side); // filter byte + 2500 bytes per row, all zero
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function createUser(db: Awaited<ReturnType<typeof app>>["db"], role: "USER" | "ADMIN" = "USER") {
  const user = await db.user.create({
    data: { email: `a-${randomUUID()}@example.test`, name: "A", passwordHash: "x", role },
  });
  return user.id;
}

describe("uploads are judged by their bytes", () => {
  it("take a PNG named .txt as an image (re-encoded, no metadata, thumbnail) and refuse HTML named .png (415)", async () => {
    const a = await app();
    const { userId } = await createUserWithSession(a.db);
    const original = await png(64, 48);
    expect(original.includes("secret-exif-marker")).toBe(true);

    const accepted = await a.post(userId, original, "holiday.txt");
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({
      kind: "image",
      name: "holiday.png",
      mime: "image/png",
      width: 64,
      height: 48,
    });
    const blob = await a.db.attachmentBlob.findUniqueOrThrow({ where: { attachmentId: accepted.body.id } });
    expect(Buffer.from(blob.data).includes("secret-exif-marker")).toBe(false);
    expect((await sharp(Buffer.from(blob.data)).metadata()).exif).toBeUndefined();
    expect(blob.thumbnail?.length).toBeGreaterThan(0);
    expect(accepted.body.bytes).toBe(blob.data.length);

    const html = await a.post(userId, "<!doctype html><html><script>alert(1)</script></html>", "cat.png");
    expect(html.status).toBe(415);
    expect(html.body).toMatchObject({
      error: { code: "unsupported_media_type", message: expect.stringContaining("HTML") },
    });
    const pdf = await a.post(userId, "%PDF-1.7\n...", "notes.txt");
    expect(pdf.status).toBe(415);

    const text = await a.post(userId, "# Shopping\nmilk\n", "list.md");
    expect(text).toMatchObject({
      status: 201,
      body: { kind: "text", name: "list.md", mime: "text/markdown", bytes: 16 },
    });
    expect(text.body.width).toBeUndefined();
    expect(await a.db.attachment.count({ where: { userId } })).toBe(2);
  });

  it("refuse oversize files with 413: images over MAX_IMAGE_BYTES, text over 1 MB", async () => {
    const image = await png(300, 300);
    const small = await app({ MAX_IMAGE_BYTES: String(image.length - 1) });
    const { userId } = await createUserWithSession(small.db);
    const refused = await small.post(userId, image, "big.png");
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ error: { code: "payload_too_large" } });
    const text = await small.post(userId, "x".repeat(1024 * 1024 + 1), "big.txt");
    expect(text.status).toBe(413);
    expect(await small.db.attachment.count({ where: { userId } })).toBe(0);
    await closeApps();

    // The same image under the default limit (10 MB): MAX_IMAGE_BYTES is what refused it.
    const normal = await app();
    expect(normal.env.MAX_IMAGE_BYTES).toBe(10 * 1024 * 1024);
    expect((await normal.post(userId, image, "big.png")).status).toBe(201);
  });

  it("refuse a decompression bomb from its header, before decoding it", async () => {
    const a = await app();
    const { userId } = await createUserWithSession(a.db);
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(200_000);
    const res = await a.post(userId, bomb, "small.png");
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      error: { code: "payload_too_large", message: expect.stringContaining("20000 × 20000") },
    });
    expect(await a.db.attachment.count({ where: { userId } })).toBe(0);
  });
});

describe("reading an attachment", () => {
  it("serves the owner and admins with its type, nosniff and a file name; 404 for anyone else", async () => {
    const a = await app();
    const { userId: owner } = await createUserWithSession(a.db);
    const stranger = await createUser(a.db);
    const admin = await createUser(a.db, "ADMIN");
    const { body } = await a.post(owner, await png(40, 30), 'Föto "1".png');
    const { body: text } = await a.post(owner, "plain words", "n.txt");

    for (const reader of [owner, admin]) {
      const res = await a.get(reader, body.id);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-disposition")).toBe(
        `inline; filename="F_to _1_.png"; filename*=UTF-8''F%C3%B6to%20%221%22.png`,
      );
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(40);
      const thumb = await a.get(reader, body.id, "?thumb=1");
      expect(thumb.headers.get("content-type")).toBe("image/webp");
    }
    const plain = await a.get(owner, text.id);
    expect(plain.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await plain.text()).toBe("plain words");
    expect((await a.get(owner, text.id, "?thumb=1")).status).toBe(404);
    // An id's bytes never change: a browser revalidates with the ETag, and access is checked before the 304.
    const etag = { "if-none-match": plain.headers.get("etag") ?? "" };
    expect((await a.get(owner, text.id, "", etag)).status).toBe(304);
    expect((await a.get(stranger, text.id, "", etag)).status).toBe(404);

    const denied = await a.get(stranger, body.id);
    expect(denied.status).toBe(404);
    expect(await denied.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await a.get(stranger, body.id, "?thumb=1")).status).toBe(404);
    expect((await a.get(owner, "nosuchid")).status).toBe(404);
    // Removing: only the owner's own unsent upload.
    expect((await a.remove(stranger, body.id)).status).toBe(404);
    expect((await a.remove(owner, body.id)).status).toBe(204);
    expect((await a.get(owner, body.id)).status).toBe(404);
    expect(await a.db.attachmentBlob.count({ where: { attachmentId: body.id } })).toBe(0);
  });
});

describe("unsent uploads", () => {
  it("older than a day are deleted with their bytes; sent and recent ones stay", async () => {
    const a = await app();
    const { userId, sessionId } = await createUserWithSession(a.db);
    await a.turn(sessionId, userId, "hello");
    const question = await a.db.chatMessage.findFirstOrThrow({ where: { sessionId, role: "user" } });
    const old = (await a.post(userId, "old", "old.txt")).body.id;
    const recent = (await a.post(userId, "recent", "recent.txt")).body.id;
    const sent = (await a.post(userId, "sent", "sent.txt")).body.id;
    await a.withTransaction((tx) =>
      a.claimAttachments({ userId, messageId: question.id, ids: [sent] }, { tx }),
    );
    const dayAgo = new Date(Date.now() - 25 * 3600_000);
    await a.db.attachment.updateMany({ where: { id: { in: [old, sent] } }, data: { createdAt: dayAgo } });

    const removed = await a.deleteUnsentAttachments();
    expect(removed.Attachment).toBeGreaterThanOrEqual(1);
    const left = await a.db.attachment.findMany({ where: { userId }, select: { id: true } });
    expect(left.map((r) => r.id).sort()).toEqual([recent, sent].sort());
    expect(await a.db.attachmentBlob.count({ where: { attachmentId: old } })).toBe(0);
  });
});

describe("a message's attachments", () => {
  async function conversation(a: Awaited<ReturnType<typeof app>>) {
    const { userId, sessionId } = await createUserWithSession(a.db);
    await a.turn(sessionId, userId, "Here comes a picture");
    const question = await a.db.chatMessage.findFirstOrThrow({ where: { sessionId, role: "user" } });
    return { userId, sessionId, questionId: question.id };
  }

  it("are claimed once, by their owner, at most 4 images; a refused claim changes nothing", async () => {
    const a = await app();
    const { userId, questionId } = await conversation(a);
    const other = await createUser(a.db);
    const images = [];
    for (let i = 0; i < 5; i++)
      images.push((await a.post(userId, await png(10 + i, 10), `p${i}.png`)).body.id);
    const foreign = (await a.post(other, "not yours", "x.txt")).body.id;
    const claim = (ids: string[]) =>
      a.withTransaction((tx) => a.claimAttachments({ userId, messageId: questionId, ids }, { tx }));

    await expect(claim(images)).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringContaining("4 images"),
    });
    await expect(claim([images[0] as string, foreign])).rejects.toMatchObject({ code: "validation_failed" });
    await expect(claim([images[0] as string, images[0] as string])).rejects.toMatchObject({
      code: "validation_failed",
    });
    expect(await a.db.attachment.count({ where: { messageId: { not: null }, userId } })).toBe(0);

    const parts = await claim(images.slice(0, 2));
    expect(parts.imageUrls).toEqual([
      `attachment:${images[0]}?w=10&h=10`,
      `attachment:${images[1]}?w=11&h=10`,
    ]);
    await expect(claim([images[0] as string])).rejects.toMatchObject({ code: "validation_failed" });
    const stored = await a.db.chatMessage.findUniqueOrThrow({ where: { id: questionId } });
    expect(stored.parts).toMatchObject({
      imageUrls: parts.imageUrls,
      attachments: [{ id: images[0] }, { id: images[1] }],
    });
  });

  it("live in history and memory as references, reach both APIs as data only at the call, and the offline model sees them", async () => {
    const a = await app();
    const { userId, sessionId, questionId } = await conversation(a);
    const image = (await a.post(userId, await png(64, 48), "cat.png")).body.id;
    const notes = (await a.post(userId, "milk\neggs", "list.txt")).body.id;
    await a.withTransaction((tx) =>
      a.claimAttachments({ userId, messageId: questionId, ids: [image, notes] }, { tx }),
    );

    const [history] = historyOf(await a.getHistoryTail({ sessionId, throughSeq: 1, take: 1 }, { tx: a.db }));
    const item = history?.item;
    expect(item).toMatchObject({
      role: "user",
      text: "Here comes a picture\n\n--- Attached file: list.txt ---\nmilk\neggs\n--- End of list.txt ---",
      imageUrls: [`attachment:${image}?w=64&h=48`],
    });
    if (!item) throw new Error("no item");
    const question = { role: "user" as const, text: "What size was the picture I sent?" };

    // Another user's turn cannot pull this image into its call.
    const stranger = await createUser(a.db);
    const theirs = await a.resolveAttachmentRefs([item], { userId: stranger });
    expect(theirs[0]?.imageUrls).toBeUndefined();
    expect(theirs[0]?.text).toContain("no longer available");

    const sent = await a.resolveAttachmentRefs([item, question], { userId });
    expect(item.imageUrls?.[0]).toMatch(/^attachment:/); // the memory item itself is unchanged
    const dataUrl = sent[0]?.imageUrls?.[0] ?? "";
    expect(dataUrl).toMatch(/^data:image\/png;base64,iVBOR/);
    // The model's text names the image after the message and its files; a small image is sent as stored.
    expect(sent[0]?.text).toBe(
      "Here comes a picture\n\n--- Attached file: list.txt ---\nmilk\neggs\n--- End of list.txt ---\n\n[Attached image: cat.png, PNG, 64 × 48 pixels]",
    );

    const { toChatMessages, toResponsesInput } = await import("@/lib/memory");
    expect(JSON.stringify(toChatMessages(sent))).toContain(`"image_url":{"url":"${dataUrl}"}`);
    expect(toResponsesInput(sent)[0]).toMatchObject({
      role: "user",
      content: expect.arrayContaining([{ type: "input_image", image_url: dataUrl, detail: "auto" }]),
    });

    const { createModel, streamReply } = await import("@/lib/llm/client");
    const { attachmentReply } = await import("@/lib/llm/demo/attachments");
    const { requestMessages } = await import("@/lib/llm/wire");
    for (const style of ["chat", "responses"] as const) {
      const body = style === "chat" ? { messages: toChatMessages(sent) } : { input: toResponsesInput(sent) };
      expect(attachmentReply(requestMessages(body), "plain")).toBe(
        "The picture you sent is a PNG image, 64 × 48 pixels.",
      );
      // And the projections go through the real SDK path to the offline handler without complaint.
      const events = [];
      for await (const event of streamReply({ items: sent, model: createModel({ style }) }))
        events.push(event);
      expect(events.at(-1)).toMatchObject({ type: "done" });
    }
  });

  it("go when the conversation is deleted: zero rows left, counted in the receipt with their bytes", async () => {
    const a = await app();
    const { userId, sessionId, questionId } = await conversation(a);
    const uploads = [
      (await a.post(userId, await png(30, 20), "a.png")).body,
      (await a.post(userId, "some text", "b.txt")).body,
    ];
    const ids = uploads.map((u) => u.id);
    await a.withTransaction((tx) => a.claimAttachments({ userId, messageId: questionId, ids }, { tx }));
    const unsent = (await a.post(userId, "kept until sent or a day old", "c.txt")).body.id;

    const { deleteSessionForUser } = await import("@/lib/db/sessions");
    const receipt = await deleteSessionForUser({ sessionId, userId });
    expect(receipt.deleted).toMatchObject({
      Attachment: 2,
      AttachmentBytes: uploads.reduce((sum, u) => sum + Number(u.bytes), 0),
    });
    expect(await a.db.attachment.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await a.db.attachmentBlob.count({ where: { attachmentId: { in: ids } } })).toBe(0);
    const left = await rowsReferring(a.db, a.env.DATABASE_URL, ids);
    expect(left).toEqual(zeroEverywhere(left));
    for (const id of ids) expect((await a.get(userId, id)).status).toBe(404);
    // An upload that was never sent belongs to the user, not to the conversation.
    expect((await a.get(userId, unsent)).status).toBe(200);
  });

  it("go when the user is deleted, sent and unsent alike, counted in the receipt", async () => {
    const a = await app();
    const { userId, questionId } = await conversation(a);
    const admin = await createUser(a.db, "ADMIN");
    const sent = (await a.post(userId, await png(12, 12), "s.png")).body;
    const unsent = (await a.post(userId, "draft", "d.txt")).body;
    await a.withTransaction((tx) =>
      a.claimAttachments({ userId, messageId: questionId, ids: [sent.id] }, { tx }),
    );

    const { deleteUserForAdmin } = await import("@/lib/db/admin-users");
    const receipt = await deleteUserForAdmin({ actorId: admin, userId });
    expect(receipt.deleted).toMatchObject({
      Attachment: 2,
      AttachmentBytes: Number(sent.bytes) + Number(unsent.bytes),
    });
    const left = await rowsReferring(a.db, a.env.DATABASE_URL, [sent.id, unsent.id]);
    expect(left).toEqual(zeroEverywhere(left));
  });
});
