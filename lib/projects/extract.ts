import { AppError } from "@/lib/errors";

// PDF text through unpdf (pdf.js inside, no hand-written parser): the text layer of every page, pages separated by a
// blank line so the chunker never joins the end of one page to the start of the next in one paragraph. A scanned
// PDF without a text layer yields no text (the caller refuses it); an encrypted or broken one is refused here.

export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  try {
    // pdf.js takes over the buffer it is given: hand it a copy. Verbosity 0: errors only, no console warnings about
    // damaged files (the refusal below says it).
    const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const { text } = await extractText(doc, { mergePages: false });
      return text.map((page) => page.trim()).join("\n\n");
    } finally {
      await doc.loadingTask.destroy();
    }
  } catch (e) {
    throw new AppError(
      "unsupported_media_type",
      "This PDF could not be read (it may be damaged or password-protected).",
      { cause: e },
    );
  }
}
