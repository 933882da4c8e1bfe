import { createShareForUser } from "@/lib/db/shares";
import { route } from "@/lib/http";
import { shareUrl } from "@/lib/share/url";

/** Snapshots the conversation's active path into a new read-only link: 201 `{ id, url }`. */
export const POST = route<{ id: string }>("user", async ({ req, params, user }) => {
  const { id } = await createShareForUser({ userId: user.id, sessionId: params.id });
  return Response.json(
    { id, url: shareUrl(req, id) },
    { status: 201, headers: { "cache-control": "no-store" } },
  );
});
