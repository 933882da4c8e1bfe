import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageTokens } from "@/lib/context";
import { imageNote, MISSING_IMAGE_NOTE, readImageNotes, withImageNotes } from "./image-note";
import { modelImageSize, toModelImage } from "./model-image";

/** A photo-like image: noise, which compresses badly, as photos do. */
async function photo(width: number, height: number, format: "jpeg" | "png" | "webp", alpha = false) {
  const channels = alpha ? 4 : 3;
  const pixels = randomBytes(width * height * channels).map((v, i) =>
    alpha && i % 4 === 3 ? 160 : 96 + (v & 63),
  );
  const base = sharp(pixels, { raw: { width, height, channels } });
  const out =
    format === "jpeg"
      ? base.jpeg({ quality: 90 })
      : format === "webp"
        ? base.webp({ quality: 90 })
        : base.png();
  return out.toBuffer();
}

/** A screenshot-like image: flat panels and thin stripes (compresses well losslessly). */
async function screenshot(width: number, height: number, format: "png" | "gif" = "png") {
  const stripes = Array.from(
    { length: 30 },
    (_, i) =>
      `<rect x="${40 + i * 7}" y="${20 + i * 19}" width="${300 + i * 13}" height="8" fill="#334455"/>`,
  ).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f4f5"/>${stripes}</svg>`;
  const image = sharp(Buffer.from(svg));
  return (format === "png" ? image.png() : image.gif()).toBuffer();
}

const sizeOf = async (data: Uint8Array) => {
  const meta = await sharp(data).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
};

describe("modelImageSize: OpenAI's working resolution at detail auto/high", () => {
  it.each([
    [4000, 3000, 1024, 768], // a 12 MP phone photo
    [3024, 4032, 768, 1024], // the same, portrait
    [1280, 800, 1229, 768], // a screenshot
    [2048, 4096, 768, 1536], // fit in 2048, then the short side to 768
    [3000, 500, 2048, 341], // a panorama: only the fit applies
    [800, 600, 800, 600], // small enough: unchanged
    [64, 48, 64, 48], // never upscaled
  ])("%i × %i → %i × %i", (width, height, w, h) => {
    expect(modelImageSize({ width, height })).toEqual({ width: w, height: h });
    // The model counts the tokens of the image it is sent as of the original: scaling costs nothing.
    expect(imageTokens({ width: w, height: h })).toBe(imageTokens({ width, height }));
  });
});

// Image work on a busy 2-core machine: a generous bound, not a timing assertion.
describe("toModelImage: the copy sent to the model", { timeout: 20_000 }, () => {
  it("scales a phone photo to 1024 × 768, stays JPEG, and carries several times fewer bytes", async () => {
    const stored = await photo(2400, 1800, "jpeg");
    const sent = await toModelImage(stored);
    expect(sent).toMatchObject({ format: "jpeg", mime: "image/jpeg", width: 1024, height: 768 });
    expect(sent?.original).toEqual({ width: 2400, height: 1800, format: "jpeg" });
    expect(await sizeOf(sent?.data ?? new Uint8Array())).toEqual({
      format: "jpeg",
      width: 1024,
      height: 768,
    });
    expect(stored.byteLength / (sent?.data.byteLength ?? Number.POSITIVE_INFINITY)).toBeGreaterThan(4);
  });

  it("keeps a WebP a WebP", async () => {
    const sent = await toModelImage(await photo(1000, 1000, "webp"));
    expect(sent).toMatchObject({ format: "webp", width: 768, height: 768 });
    expect(await sizeOf(sent?.data ?? new Uint8Array())).toMatchObject({ format: "webp", width: 768 });
  });

  it("keeps a screenshot lossless (PNG), and sends a photographic GIF as a JPEG", async () => {
    const png = await toModelImage(await screenshot(2560, 1600));
    expect(png).toMatchObject({ format: "png", width: 1229, height: 768 });
    const gif = await toModelImage(
      await sharp(await photo(1200, 600, "png"))
        .gif()
        .toBuffer(),
    );
    expect(gif).toMatchObject({ format: "jpeg", width: 1200, height: 600 });
    expect(gif?.original).toMatchObject({ format: "gif", width: 1200, height: 600 });
  });

  it("sends a photo stored as PNG as JPEG, unless it is transparent (JPEG has no alpha; it stays PNG)", async () => {
    const opaque = await photo(1200, 900, "png");
    const sent = await toModelImage(opaque);
    expect(sent).toMatchObject({ format: "jpeg", width: 1024, height: 768 });
    expect(opaque.byteLength / (sent?.data.byteLength ?? Number.POSITIVE_INFINITY)).toBeGreaterThan(5);
    const transparent = await toModelImage(await photo(1200, 900, "png", true));
    expect(transparent).toMatchObject({ format: "png", width: 1024, height: 768 });
    expect((await sharp(transparent?.data).metadata()).hasAlpha).toBe(true);
  });

  it("sends the stored file itself when it is small enough or smaller than its scaled copy", async () => {
    const small = await screenshot(64, 48);
    const sent = await toModelImage(small);
    expect(sent?.data).toBe(small);
    expect(sent).toMatchObject({ format: "png", width: 64, height: 48 });
    // A flat 1280 × 800 screenshot compresses better than its 1229 × 768 copy (whose edges are resampled).
    const flat = await screenshot(1280, 800);
    const scaledCopy = await sharp(flat).resize(1229, 768, { fit: "fill" }).png().toBuffer();
    expect(scaledCopy.byteLength).toBeGreaterThan(flat.byteLength);
    const flatSent = await toModelImage(flat);
    expect(flatSent?.data).toBe(flat);
    expect(flatSent).toMatchObject({ width: 1280, height: 800 });
  });

  it("is null for bytes that are no image", async () => {
    expect(await toModelImage(new TextEncoder().encode("hello"))).toBeNull();
  });
});

describe("the line naming an image", () => {
  it("round-trips through the model's text, with any name", () => {
    const notes = [
      {
        name: "photo, edited [2].jpg",
        type: "JPEG" as const,
        width: 4000,
        height: 3000,
        shown: { width: 1024, height: 768 },
      },
      { name: "a.png", type: "PNG" as const, width: 64, height: 48, shown: { width: 64, height: 48 } },
    ];
    const lines = [
      imageNote(notes[0] as (typeof notes)[0]),
      MISSING_IMAGE_NOTE,
      imageNote(notes[1] as (typeof notes)[1]),
    ];
    expect(lines[0]).toBe(
      "[Attached image: photo, edited [2].jpg, JPEG, 4000 × 3000 pixels, shown at 1024 × 768]",
    );
    expect(lines[2]).toBe("[Attached image: a.png, PNG, 64 × 48 pixels]");
    const text = withImageNotes("look\n\nat these", lines);
    const read = readImageNotes(text);
    expect(read.text).toBe("look\n\nat these");
    expect(read.notes).toEqual([notes[0], { name: "a.png", type: "PNG", width: 64, height: 48 }]);
    expect(readImageNotes(withImageNotes("", lines)).text).toBe("");
    expect(readImageNotes("no lines here")).toEqual({ text: "no lines here", notes: [] });
    expect(imageNote({ name: "two\nlines.png", type: "PNG", width: 1, height: 1 })).toBe(
      "[Attached image: two lines.png, PNG, 1 × 1 pixels]",
    );
  });
});
