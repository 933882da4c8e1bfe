import { listSharesByUserId } from "@/lib/db/shares";
import { route } from "@/lib/http";
import { shareUrl } from "@/lib/share/url";

/** The caller's share links: `[{ id, url, sessionId, title, createdAt, messages }]`, newest first. */
export const GET = route("user", async ({ req, user }) => {
  const shares = await listSharesByUserId({ userId: user.id });
  return Response.json(shares.map((s) => ({ ...s, url: shareUrl(req, s.id) })));
});
