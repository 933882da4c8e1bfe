import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { importExportFile } from "@/lib/export/import";
import { readBodyBytes, route } from "@/lib/http";

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/**
 * An export file (the request body, JSON, at most MAX_IMPORT_BYTES: 413 beyond, unread) into new conversations.
 * 422 with the paths of what is wrong; nothing is written unless everything is.
 */
export const POST = route("user", async ({ req, user }) => {
  const limit = env.MAX_IMPORT_BYTES;
  const bytes = await readBodyBytes(
    req,
    limit,
    () =>
      new AppError("payload_too_large", `This file is larger than the import limit of ${mb(limit)}.`, {
        details: { maxBytes: limit },
      }),
  );
  const imported = await importExportFile({ userId: user.id, bytes });
  return Response.json({ imported }, { status: 201 });
});
