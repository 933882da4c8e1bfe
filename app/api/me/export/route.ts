import { AppError } from "@/lib/errors";
import { downloadHeaders } from "@/lib/export/download";
import { exportAccountStream } from "@/lib/export/read";
import { route } from "@/lib/http";

/**
 * Everything the signed-in user owns as one JSON export file, streamed conversation by conversation: every
 * conversation with all its branches, memory settings, long-term memory and its facts; attachments as references,
 * or their files inline with `attachments=inline`.
 */
export const GET = route("user", async ({ req, user }) => {
  const mode = new URL(req.url).searchParams.get("attachments") ?? "reference";
  if (mode !== "reference" && mode !== "inline") {
    throw new AppError("bad_request", "attachments must be reference or inline.");
  }
  return new Response(exportAccountStream({ userId: user.id, attachments: mode }), {
    headers: downloadHeaders({ title: null, date: new Date(), extension: "json" }),
  });
});
