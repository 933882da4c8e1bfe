import "server-only";
import { MULTIPART_OVERHEAD_BYTES } from "@/lib/attachments/limits";
import { decodeText, imageFormatOf, textMimeFor } from "@/lib/attachments/sniff";
import { cleanName } from "@/lib/attachments/upload";
import { scheduleEmbeddings } from "@/lib/chat/embedding-job";
import { countFilesOfProjectForUser, createProjectFile, type ProjectFileView } from "@/lib/db/project-files";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { readMultipartFile } from "@/lib/http";
import { chunkText, textKindOf } from "./chunk";
import { extractPdfText } from "./extract";
import { MAX_PROJECT_FILE_CHARS } from "./limits";

// POST /api/projects/:id/files (docs/decisions/037-project-files.md): one file in the multipart field `file`, its
// type judged by its bytes (a PDF by its signature, else UTF-8 text), its text cut into chunks and stored with the
// file in one transaction, then embedded off the request when EMBEDDINGS_MODEL is set
// (docs/decisions/039-chunk-embeddings.md). The file's bytes are not kept.

const ACCEPTED_PROJECT_FILES =
  "Add a text file (plain text, Markdown, CSV, JSON or source code) or a PDF with a text layer.";

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function tooLarge(size: number | null): AppError {
  const limit = env.PROJECT_FILE_MAX_BYTES;
  const is = size === null ? "is too large" : `is ${mb(size)}`;
  return new AppError("payload_too_large", `This file ${is}; the limit is ${mb(limit)}.`, {
    details: { maxBytes: limit },
  });
}

function readFile(req: Request): Promise<File> {
  return readMultipartFile(req, {
    limit: env.PROJECT_FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
    tooLarge: () => tooLarge(null),
    oneFile: "Send exactly one file, in a field named `file`.",
  });
}

const PDF_SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** The file's text and stored type: a PDF's text layer, or the file itself when it is UTF-8 text. */
async function textOf(
  bytes: Uint8Array,
  name: string,
): Promise<{ text: string; mime: string; pdf: boolean }> {
  if (PDF_SIGNATURE.every((b, i) => bytes[i] === b)) {
    return { text: await extractPdfText(bytes), mime: "application/pdf", pdf: true };
  }
  const text = imageFormatOf(bytes) ? null : decodeText(bytes);
  if (text === null) {
    throw new AppError(
      "unsupported_media_type",
      `This file is neither text nor a PDF. ${ACCEPTED_PROJECT_FILES}`,
    );
  }
  return { text, mime: textMimeFor(name), pdf: false };
}

/** Adds the uploaded file to the user's project (404 when the project is not theirs, before the body is read). */
export async function uploadProjectFile({
  userId,
  projectId,
  req,
}: {
  userId: string;
  projectId: string;
  req: Request;
}): Promise<ProjectFileView> {
  await countFilesOfProjectForUser({ userId, projectId });
  const file = await readFile(req);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength === 0) throw new AppError("bad_request", "This file is empty.");
  if (bytes.byteLength > env.PROJECT_FILE_MAX_BYTES) throw tooLarge(bytes.byteLength);
  const name = cleanName(file.name, null);
  const { text, mime, pdf } = await textOf(bytes, name);
  if (text.length > MAX_PROJECT_FILE_CHARS) {
    throw new AppError(
      "payload_too_large",
      `This file holds more than ${MAX_PROJECT_FILE_CHARS.toLocaleString("en")} characters of text; split it into smaller files.`,
      { details: { maxChars: MAX_PROJECT_FILE_CHARS } },
    );
  }
  const chunks = chunkText(text, pdf ? "text" : textKindOf(name));
  if (chunks.length === 0) {
    throw new AppError(
      "validation_failed",
      pdf ? "This PDF has no text to read (a scan without a text layer?)." : "This file holds no text.",
    );
  }
  const created = await createProjectFile({ userId, projectId, name, mime, bytes: bytes.byteLength, chunks });
  scheduleEmbeddings();
  return created;
}
