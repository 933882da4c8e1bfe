import { deleteShareForUser } from "@/lib/db/shares";
import { route } from "@/lib/http";

/** Revokes one of the caller's share links (204): its page is a 404 from now on. Another user's link is a 404. */
export const DELETE = route<{ id: string }>("user", async ({ params, user }) => {
  await deleteShareForUser({ userId: user.id, shareId: params.id });
  return new Response(null, { status: 204 });
});
