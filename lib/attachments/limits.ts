// Attachment limits that are part of the product, not configuration (MAX_IMAGE_BYTES is in lib/env.ts). No imports:
// the browser's composer uses them too.

/** Largest text file (txt, md, csv, json, source code). */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** Images per message (the rule; also what the model APIs handle well). */
export const MAX_IMAGES_PER_MESSAGE = 4;
/** Attachments per message: the images plus text files. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 8;
/** Uploads a user may have waiting to be sent at once; each is removed a day after upload if never sent. */
export const MAX_UNSENT_PER_USER = 20;
/** Unsent uploads older than this are deleted by the cleanup. */
export const UNSENT_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * Decoded pixels an image may have: 50 megapixels (an 8000 × 6000 photo). A small file declaring more — a
 * decompression bomb — is refused from its header, before it is decoded.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The longer side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;
/** Longest file name kept. */
export const MAX_NAME_CHARS = 200;
/** Room for the multipart envelope around the file (boundaries, headers of the part). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
