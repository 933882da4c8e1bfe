// The browser's upload of one file: POST /api/attachments as multipart/form-data through XMLHttpRequest, the one
// browser API that reports upload progress. Failures become a RequestError like every other call (lib/client/api).

import type { AttachmentView } from "@/lib/attachments/upload";
import { RequestError } from "@/lib/client/api";

export type { AttachmentView };

export function uploadFile(
  file: File,
  { onProgress, signal }: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<AttachmentView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/attachments");
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a proxy's error page; the status speaks.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        resolve(body as AttachmentView);
        return;
      }
      const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
      reject(new RequestError(error?.message ?? `Upload failed (${xhr.status}).`, xhr.status, error?.code));
    };
    xhr.onerror = () => reject(new RequestError("unreachable", 0));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}
