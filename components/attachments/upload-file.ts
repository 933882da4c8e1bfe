// The browser's upload of one file: POST /api/attachments as multipart/form-data, with its progress.

import type { AttachmentView } from "@/lib/attachments/upload";
import { upload } from "@/lib/client/api";

export type { AttachmentView };

export function uploadFile(
  file: File,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<AttachmentView> {
  const form = new FormData();
  form.append("file", file, file.name);
  return upload<AttachmentView>("/api/attachments", form, options);
}
