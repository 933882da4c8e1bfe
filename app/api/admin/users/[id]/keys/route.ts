import { revokeUserApiKeysForAdmin } from "@/lib/db/api-keys";
import { route } from "@/lib/http";

/** Revokes every working API key of the user → `{ revoked }` (audited with the count, never a key). */
export const DELETE = route<{ id: string }, "admin">("admin", async ({ params, user }) => {
  return Response.json(await revokeUserApiKeysForAdmin({ actorId: user.id, userId: params.id }));
});
