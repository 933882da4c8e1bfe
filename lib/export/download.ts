// Headers of an export download (pure): a file name that is safe everywhere, and never cached.

/** `recall-<title>-<date>.<ext>`: the title as ASCII letters and digits (anything else collapses to -). */
export function exportFileName(title: string | null, date: Date, extension: "md" | "json"): string {
  const slug = (title ?? "")
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, 60)
    .replace(/-+$/, "");
  const day = date.toISOString().slice(0, 10);
  return ["recall", slug || (title === null ? "export" : "conversation"), day]
    .join("-")
    .concat(`.${extension}`);
}

/** The title as a UTF-8 name for filename* (control characters, quotes and path separators removed). */
function unicodeName(title: string, date: Date, extension: string): string {
  const clean = title
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f"\\/:*?<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80);
  return `${clean || "conversation"} ${date.toISOString().slice(0, 10)}.${extension}`;
}

export function downloadHeaders({
  title,
  date,
  extension,
}: {
  /** The conversation's title; null for the account export. */
  title: string | null;
  date: Date;
  extension: "md" | "json";
}): Record<string, string> {
  const ascii = exportFileName(title, date, extension);
  const disposition =
    title === null
      ? `attachment; filename="${ascii}"`
      : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(unicodeName(title, date, extension))}`;
  return {
    "content-type": extension === "md" ? "text/markdown; charset=utf-8" : "application/json; charset=utf-8",
    "content-disposition": disposition,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  };
}
