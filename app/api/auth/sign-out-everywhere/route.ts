import { revokeUserTokens } from "@/lib/db/users";
import { route } from "@/lib/http";

/** Revokes every session token of the signed-in user, on every device (this one included). */
export const POST = route("user", async ({ user }) => {
  await revokeUserTokens({ id: user.id });
  return new Response(null, { status: 204 });
});
