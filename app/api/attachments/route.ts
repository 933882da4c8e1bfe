import { uploadAttachment } from "@/lib/attachments/upload";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

/** One file in the multipart field `file` → `{ id, kind, name, mime, bytes, width?, height? }` (201), unsent. */
export const POST = route("user", async ({ req, user }) => {
  return Response.json(await uploadAttachment({ userId: user.id, req }), { status: 201 });
});
