import { resetUserPassword } from "@/lib/auth/account";
import { route } from "@/lib/http";

type Params = { id: string };

/**
 * Resets the user's password → `{ password }`, shown once: the user must choose a new one at next sign-in, and
 * every sign-in of theirs is refused at once. 409 `self_action` for one's own account.
 */
export const POST = route<Params, "admin">("admin", async ({ params, user }) => {
  const result = await resetUserPassword({ actorId: user.id, userId: params.id });
  return Response.json(result, { headers: { "cache-control": "no-store" } });
});
