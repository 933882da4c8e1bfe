import { revokeApiKeyForUser } from "@/lib/db/api-keys";
import { route } from "@/lib/http";

/** Revokes one of the caller's keys at once (204); another user's key is a 404. */
export const DELETE = route<{ id: string }>("user", async ({ params, user }) => {
  await revokeApiKeyForUser({ userId: user.id, keyId: params.id });
  return new Response(null, { status: 204 });
});
