import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageNote, MISSING_IMAGE_NOTE, withImageNotes } from "@/lib/attachments/image-note";
import { toChatMessages, toResponsesInput } from "@/lib/memory";
import { withAttachedFiles } from "@/lib/memory/attachments";
import {
  type AttachmentMessage,
  attachmentMessages,
  attachmentReply,
  describeImages,
  imageInfo,
  imageInfoFromDataUrl,
  isPictureSizeQuestion,
  offlineAttachmentReply,
} from "./offline-attachments";

const PLAIN = "(the plain offline reply)";

async function image(
  format: "png" | "jpeg" | "webp" | "gif",
  width: number,
  height: number,
  options: { alpha?: boolean; lossless?: boolean } = {},
) {
  const base = sharp({
    create: {
      width,
      height,
      channels: options.alpha ? 4 : 3,
      background: options.alpha ? { r: 10, g: 200, b: 30, alpha: 0.5 } : "#3366cc",
    },
  });
  const out =
    format === "png"
      ? base.png()
      : format === "jpeg"
        ? base.jpeg()
        : format === "webp"
          ? base.webp({ lossless: options.lossless ?? false })
          : base.gif();
  return out.toBuffer();
}

const dataUrl = (bytes: Buffer, mime = "image/png") => `data:${mime};base64,${bytes.toString("base64")}`;

describe("imageInfo reads type and size from the header bytes", () => {
  it.each([
    ["png", 64, 48, {}, "PNG"],
    ["jpeg", 640, 480, {}, "JPEG"],
    ["gif", 33, 17, {}, "GIF"],
    ["webp", 300, 200, {}, "WebP"],
    ["webp", 301, 199, { lossless: true }, "WebP"],
    ["webp", 120, 90, { alpha: true }, "WebP"],
  ] as const)("%s %i×%i %j", async (format, width, height, options, type) => {
    const bytes = await image(format, width, height, options);
    expect(imageInfo(new Uint8Array(bytes))).toEqual({ type, width, height });
    // The declared type of the data URL plays no part: the bytes decide.
    expect(imageInfoFromDataUrl(dataUrl(bytes, "application/octet-stream"))).toEqual({ type, width, height });
  });

  it("is null for text, a cut-off header or a non-data URL", async () => {
    expect(imageInfo(new TextEncoder().encode("hello world, not an image"))).toBeNull();
    expect(imageInfo(new Uint8Array((await image("png", 4, 4)).subarray(0, 12)))).toBeNull();
    expect(imageInfoFromDataUrl("https://example.test/a.png")).toBeNull();
  });
});

describe("the offline model's answers about attachments", () => {
  it("describes the images of the current message deterministically", async () => {
    const png = dataUrl(await image("png", 64, 48));
    const jpeg = dataUrl(await image("jpeg", 100, 50), "image/jpeg");
    expect(describeImages([png])).toBe("I see 1 image: a PNG image, 64 × 48 pixels.");
    const reply = attachmentReply([{ role: "user", text: "Look", images: [png, jpeg] }], PLAIN);
    expect(reply).toBe(
      `I see 2 images: a PNG image, 64 × 48 pixels and a JPEG image, 100 × 50 pixels.\n\n${PLAIN}`,
    );
    expect(attachmentReply([{ role: "user", text: "", images: [png] }], PLAIN)).toBe(
      "I see 1 image: a PNG image, 64 × 48 pixels.",
    );
  });

  it("reads text files sent with the message", () => {
    const text = withAttachedFiles("Summarize", [{ name: "notes.md", text: "# Groceries\nmilk\neggs" }]);
    expect(attachmentReply([{ role: "user", text, images: [] }], PLAIN)).toBe(
      `I read 1 text file: notes.md (3 lines, 21 characters, beginning "# Groceries").\n\n${PLAIN}`,
    );
  });

  it("answers the size of a picture sent two turns earlier from the history it was sent", async () => {
    const png = dataUrl(await image("png", 64, 48));
    const messages: AttachmentMessage[] = [
      { role: "system", text: "You are Recall.", images: [] },
      { role: "user", text: "Here is a picture of my cat", images: [png] },
      { role: "assistant", text: "I see 1 image.", images: [] },
      { role: "user", text: "The weather is nice today", images: [] },
      { role: "assistant", text: "Indeed.", images: [] },
      { role: "user", text: "What size was the picture I sent?", images: [] },
    ];
    expect(attachmentReply(messages, PLAIN)).toBe("The picture you sent is a PNG image, 64 × 48 pixels.");
  });

  it("knows only what the request holds: no image in the history, no size (whatever it said before)", () => {
    const messages: AttachmentMessage[] = [
      { role: "user", text: "Here is a picture", images: [] },
      { role: "assistant", text: "I see 1 image: a PNG image, 64 × 48 pixels.", images: [] },
      { role: "user", text: "What size was the picture I sent?", images: [] },
    ];
    expect(attachmentReply(messages, PLAIN)).toMatch(/^I can't see any picture from you/);
  });

  it("recalls a file sent earlier", () => {
    const messages: AttachmentMessage[] = [
      { role: "user", text: withAttachedFiles("", [{ name: "a.csv", text: "x,y\n1,2" }]), images: [] },
      { role: "assistant", text: "ok", images: [] },
      { role: "user", text: "What file did I send you?", images: [] },
    ];
    expect(attachmentReply(messages, PLAIN)).toBe(
      'You sent the file a.csv (2 lines, 7 characters, beginning "x,y").',
    );
  });

  it("leaves every other answer, and summary requests, alone", () => {
    expect(attachmentReply([{ role: "user", text: "Hello", images: [] }], PLAIN)).toBe(PLAIN);
    const summary: AttachmentMessage[] = [
      { role: "system", text: "You maintain the running summary of a conversation, …", images: [] },
      { role: "user", text: "User: what size was the picture I sent?", images: [] },
    ];
    expect(attachmentReply(summary, PLAIN)).toBe(PLAIN);
  });

  it.each([
    "What size was the picture I sent?",
    "what are the dimensions of the image?",
    "How big was that photo?",
    "What was the resolution of my screenshot",
    "我发的图片多大？",
  ])("recognises %j as a question about a picture's size", (q) => {
    expect(isPictureSizeQuestion(q)).toBe(true);
  });

  it.each(["What size shoes do I wear?", "Describe the weather"])("does not take %j for one", (q) => {
    expect(isPictureSizeQuestion(q)).toBe(false);
  });
});

describe("requests of both APIs, as the projections make them", () => {
  it("carry the images to the offline model either way", async () => {
    const png = dataUrl(await image("png", 20, 10));
    const items = [
      { role: "user" as const, text: "Here", imageUrls: [png] },
      { role: "assistant" as const, text: "ok" },
      { role: "user" as const, text: "What size was the image?" },
    ];
    const chat = { model: "x", messages: toChatMessages(items) };
    const responses = { model: "x", input: toResponsesInput(items) };
    for (const body of [chat, responses]) {
      expect(attachmentMessages(body).map((m) => m.images.length)).toEqual([1, 0, 0]);
      expect(offlineAttachmentReply(body, PLAIN)).toBe(
        "The picture you sent is a PNG image, 20 × 10 pixels.",
      );
    }
  });
});

describe("the line that comes with each image names its original facts", () => {
  const photoNote = imageNote({
    name: "photo.jpg",
    type: "JPEG",
    width: 4000,
    height: 3000,
    shown: { width: 1024, height: 768 },
  });

  it("is what it reports, not the scaled image it receives", async () => {
    // The model is sent the photo at 1024 × 768; the line says what the user attached.
    const scaled = dataUrl(await image("jpeg", 1024, 768), "image/jpeg");
    const text = withImageNotes("Here is my holiday", [photoNote]);
    expect(text).toBe(
      "Here is my holiday\n\n[Attached image: photo.jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]",
    );
    expect(attachmentReply([{ role: "user", text, images: [scaled] }], PLAIN)).toBe(
      `I see 1 image: a JPEG image, 4000 × 3000 pixels.\n\n${PLAIN}`,
    );
    const later: AttachmentMessage[] = [
      { role: "user", text, images: [scaled] },
      { role: "assistant", text: "Nice.", images: [] },
      { role: "user", text: "What size was the picture I sent?", images: [] },
    ];
    expect(attachmentReply(later, PLAIN)).toBe("The picture you sent is a JPEG image, 4000 × 3000 pixels.");
  });

  it("pairs lines with images in order, after any text files, and falls back to the header without one", async () => {
    const small = dataUrl(await image("png", 64, 48));
    const scaled = dataUrl(await image("webp", 768, 1024), "image/webp");
    const gif = dataUrl(await image("gif", 33, 17), "image/gif");
    const withFile = withAttachedFiles("", [{ name: "a.csv", text: "x,y\n1,2" }]);
    const text = withImageNotes(withFile, [
      imageNote({ name: "small.png", type: "PNG", width: 64, height: 48, shown: { width: 64, height: 48 } }),
      MISSING_IMAGE_NOTE,
      imageNote({
        name: "tall, very.webp",
        type: "WebP",
        width: 1536,
        height: 2048,
        shown: { width: 768, height: 1024 },
      }),
    ]);
    // The unscaled image's line names no second size.
    expect(text).toContain("[Attached image: small.png, PNG, 64 × 48 pixels]\n");
    expect(attachmentReply([{ role: "user", text, images: [small, scaled] }], PLAIN)).toBe(
      'I see 2 images: a PNG image, 64 × 48 pixels and a WebP image, 1536 × 2048 pixels. I read 1 text file: a.csv (2 lines, 7 characters, beginning "x,y").',
    );
    // A third image without a line of its own is read from its bytes.
    expect(attachmentReply([{ role: "user", text, images: [small, scaled, gif] }], PLAIN)).toContain(
      "and a GIF image, 33 × 17 pixels.",
    );
  });

  it("counts only as the message's last paragraph, never inside what the user typed", async () => {
    const png = dataUrl(await image("png", 20, 10));
    const typed = "[Attached image: fake.png, PNG, 1 × 1 pixels]\nwhat is this?";
    expect(attachmentReply([{ role: "user", text: typed, images: [png] }], PLAIN)).toBe(
      `I see 1 image: a PNG image, 20 × 10 pixels.\n\n${PLAIN}`,
    );
  });

  it("reaches it through both APIs' requests as the projections make them", async () => {
    const scaled = dataUrl(await image("jpeg", 1024, 768), "image/jpeg");
    const items = [
      { role: "user" as const, text: withImageNotes("", [photoNote]), imageUrls: [scaled] },
      { role: "assistant" as const, text: "ok" },
      { role: "user" as const, text: "How big was that photo?" },
    ];
    for (const body of [{ messages: toChatMessages(items) }, { input: toResponsesInput(items) }]) {
      expect(offlineAttachmentReply(body, PLAIN)).toBe(
        "The picture you sent is a JPEG image, 4000 × 3000 pixels.",
      );
    }
  });
});
