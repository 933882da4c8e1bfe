import sharp from "sharp";
import { MAX_IMAGE_PIXELS } from "./limits";
import { IMAGE_MIME, type ImageFormat, imageFormatOf } from "./sniff";

// The copy of an image the model is sent (docs/decisions/015-attachments.md). OpenAI scales every image
// at detail auto/high to fit within 2048 × 2048 and then to a shortest side of at most 768 px before looking at it
// (the rule lib/context/tokenizer.ts counts tokens by); anything bigger is bytes carried, serialized and parsed for
// nothing. Made once per attachment and cached by lib/attachments/resolve.ts. No `server-only` marker: it reads no
// database and no configuration, and the benchmark (scripts/bench/attachments.ts) sizes its images with it.

const MODEL_MAX_SIDE = 2048;
const MODEL_SHORT_SIDE = 768;
/** Quality of a lossy working copy (sharp's default): visually clean at this size. */
const MODEL_LOSSY_QUALITY = 80;
/**
 * JPEG through mozjpeg (trellis quantisation, its own tables, progressive scans): about a third fewer bytes than
 * plain libjpeg at the same quality, for ~0.1 s more encoding, paid once per image.
 */
const JPEG = { quality: MODEL_LOSSY_QUALITY, mozjpeg: true } as const;
/**
 * A PNG working copy larger than this per pixel is photographic content (screenshots and diagrams take 0.1–0.5
 * bytes a pixel, photos 1.5 and more): it is sent as JPEG instead, unless it has transparency (which JPEG cannot
 * hold; it stays PNG).
 */
const LOSSLESS_MAX_BYTES_PER_PIXEL = 1;

export interface Size {
  width: number;
  height: number;
}

/** The size OpenAI works at (detail auto/high): within 2048 × 2048, shortest side at most 768; never larger. */
export function modelImageSize({ width, height }: Size): Size {
  const fit = Math.min(1, MODEL_MAX_SIDE / Math.max(width, height));
  const scale = fit * Math.min(1, MODEL_SHORT_SIDE / (Math.min(width, height) * fit));
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export interface ModelImage {
  /** The bytes to send: the working copy, or the stored file itself when that is no larger. */
  data: Uint8Array;
  format: ImageFormat;
  mime: string;
  /** The size sent. */
  width: number;
  height: number;
  /** The stored image's size and format (what the user attached, upright). */
  original: Size & { format: ImageFormat };
}

/**
 * The image as the model should get it, from the stored file (already upright and without metadata: see
 * image.ts). Scaled down to `modelImageSize` and encoded once: JPEG and WebP stay lossy in their own format; PNG
 * and GIF become PNG, lossless so that text in a screenshot stays sharp, unless that is photographic (see
 * LOSSLESS_MAX_BYTES_PER_PIXEL): then JPEG. Nothing becomes WebP that was not (some OpenAI-compatible servers
 * read only PNG and JPEG). The stored file is sent unchanged when it is already no larger than the working copy
 * would be (a small screenshot compresses better than its scaled copy); the model scales it the same way.
 * Null when the bytes are no image this product stores.
 */
export async function toModelImage(stored: Uint8Array): Promise<ModelImage | null> {
  const format = imageFormatOf(stored);
  if (!format) return null;
  const meta = await sharp(stored, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  const original = { width: meta.width ?? 0, height: meta.pageHeight ?? meta.height ?? 0, format };
  if (original.width <= 0 || original.height <= 0) return null;
  const target = modelImageSize(original);
  const scaled = target.width !== original.width || target.height !== original.height;
  const pixels = target.width * target.height;
  const alpha = meta.hasAlpha === true;
  const lossless = format === "png" || format === "gif";
  const asStored: ModelImage = {
    data: stored,
    format,
    mime: IMAGE_MIME[format],
    width: original.width,
    height: original.height,
    original,
  };

  const image = () => {
    const pipeline = sharp(stored, { limitInputPixels: MAX_IMAGE_PIXELS });
    return scaled ? pipeline.resize(target.width, target.height, { fit: "fill" }) : pipeline;
  };
  let copy: { format: ImageFormat; data: Buffer } | null = null;
  if (lossless) {
    const budget = LOSSLESS_MAX_BYTES_PER_PIXEL * pixels;
    if (!scaled && stored.byteLength <= budget) return asStored;
    const png = scaled ? await image().png().toBuffer() : null;
    if (png && (png.byteLength <= budget || alpha)) copy = { format: "png", data: png };
    else if (!alpha) copy = { format: "jpeg", data: await image().jpeg(JPEG).toBuffer() };
  } else if (scaled) {
    const out = format === "jpeg" ? image().jpeg(JPEG) : image().webp({ quality: MODEL_LOSSY_QUALITY });
    copy = { format, data: await out.toBuffer() };
  }
  if (!copy || copy.data.byteLength >= stored.byteLength) return asStored;
  return { data: copy.data, format: copy.format, mime: IMAGE_MIME[copy.format], ...target, original };
}
