import "server-only";
import sharp, { type Metadata, type OutputInfo } from "sharp";
import { AppError } from "@/lib/errors";
import { MAX_IMAGE_PIXELS, THUMBNAIL_SIZE } from "./limits";
import { IMAGE_MIME, type ImageFormat } from "./sniff";

export interface ProcessedImage {
  format: ImageFormat;
  mime: string;
  /** The image as stored: decoded and encoded again, so no metadata (EXIF, GPS, comments) survives. */
  data: Buffer;
  width: number;
  height: number;
  /** A WebP at most THUMBNAIL_SIZE on its longer side. */
  thumbnail: Buffer;
}

export const THUMBNAIL_MIME = "image/webp";

const LABEL: Record<ImageFormat, string> = { png: "PNG", jpeg: "JPEG", webp: "WebP", gif: "GIF" };

const megapixels = (n: number) => `${Math.round(n / 100_000) / 10} megapixels`;

function tooManyPixels(width: number, height: number): AppError {
  return new AppError(
    "payload_too_large",
    `This image is ${width} × ${height} pixels (${megapixels(width * height)}); the limit is ${megapixels(MAX_IMAGE_PIXELS)}. Make it smaller and attach it again.`,
    { details: { width, height, maxPixels: MAX_IMAGE_PIXELS } },
  );
}

function unreadable(format: ImageFormat, cause: unknown): AppError {
  return new AppError(
    "unsupported_media_type",
    `This file starts like a ${LABEL[format]} image but could not be read as one; it may be damaged.`,
    { cause },
  );
}

/**
 * Decodes an image of the sniffed `format` and encodes it again in the same format (the first frame of an
 * animation), turned upright by its EXIF orientation and without any metadata, plus a thumbnail. The pixel count
 * is checked from the header before anything is decoded (413), and sharp's own `limitInputPixels` enforces the same
 * bound while decoding.
 */
export async function processImage(input: Uint8Array, format: ImageFormat): Promise<ProcessedImage> {
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw unreadable(format, e);
  }
  const width = header.width ?? 0;
  const height = header.pageHeight ?? header.height ?? 0;
  if (width * height > MAX_IMAGE_PIXELS) throw tooManyPixels(width, height);

  let encoded: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }).rotate();
    const out =
      format === "png"
        ? image.png()
        : format === "jpeg"
          ? image.jpeg({ quality: 90 })
          : format === "webp"
            ? image.webp({ quality: 90 })
            : image.gif();
    encoded = await out.toBuffer({ resolveWithObject: true });
  } catch (e) {
    if (e instanceof Error && /pixel limit/i.test(e.message)) throw tooManyPixels(width, height);
    throw unreadable(format, e);
  }
  const thumbnail = await sharp(encoded.data)
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
  return {
    format,
    mime: IMAGE_MIME[format],
    data: encoded.data,
    width: encoded.info.width,
    height: encoded.info.height,
    thumbnail,
  };
}
