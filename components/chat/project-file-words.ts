import type { Format } from "@/lib/i18n/format";
import type { Translator } from "@/lib/i18n/translate";

// The project files panel in plain words: sizes, a file's line, and why an upload was refused, from the API's error
// codes (POST /api/projects/:id/files, docs/decisions/037-project-files.md). Pure, so the wording is unit-tested.

type T = Translator<"projectFiles">;

/** "812 B", "3.4 KB", "10 MB". */
export function fileSize(t: T, format: Format, bytes: number): string {
  const one = (n: number) => format.number(n, { maximumFractionDigits: 1 });
  if (bytes < 1024) return t("size.bytes", { n: one(bytes) });
  if (bytes < 1024 * 1024) return t("size.kb", { n: one(bytes / 1024) });
  return t("size.mb", { n: one(bytes / (1024 * 1024)) });
}

/** "3.4 KB · 3 parts · added Dec 3, 2026": a listed file's details. */
export const fileDetails = (
  t: T,
  format: Format,
  file: { bytes: number; chunkCount: number; createdAt: string },
) =>
  t("details", {
    size: fileSize(t, format, file.bytes),
    parts: t("parts", { n: file.chunkCount }),
    date: format.date(file.createdAt),
  });

/** What a refused upload carries: the API's `{ code, details }` (a RequestError) and its HTTP status. */
interface Refusal {
  code?: string;
  status?: number;
  details?: unknown;
}

/**
 * Why a file was not added, for people: the codes the upload route answers with get their own sentence (with the
 * limit where there is one); anything else is `otherwise(error)` (the app's error text: offline, rate limit, …).
 */
export function uploadRefusal(
  t: T,
  format: Format,
  error: unknown,
  maxBytes: number,
  otherwise: (error: unknown) => string,
): string {
  const e = (typeof error === "object" && error !== null ? error : {}) as Refusal;
  const details = (typeof e.details === "object" && e.details !== null ? e.details : {}) as Record<
    string,
    unknown
  >;
  const limit = (key: string) => (typeof details[key] === "number" ? (details[key] as number) : null);
  switch (e.code) {
    case "payload_too_large": {
      const chars = limit("maxChars");
      if (chars !== null) return t("errors.tooMuchText", { max: format.number(chars) });
      return t("errors.tooLarge", { limit: fileSize(t, format, limit("maxBytes") ?? maxBytes) });
    }
    case "unsupported_media_type":
      return t("errors.unsupported");
    // The panel always sends one file in the field `file`: the one request it can get wrong is an empty file.
    case "bad_request":
      return t("errors.empty");
    case "validation_failed": {
      const files = limit("maxFiles");
      return files !== null ? t("errors.tooMany", { max: files }) : t("errors.noText");
    }
    case "not_found":
      return t("errors.projectGone");
  }
  // A proxy in front of the server may refuse a large body with its own page.
  if (e.code === undefined && e.status === 413)
    return t("errors.tooLarge", { limit: fileSize(t, format, maxBytes) });
  return otherwise(error);
}
