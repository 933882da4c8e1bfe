import { SESSION_MAX_AGE_SECONDS } from "@/lib/auth/options";
import { changePassword } from "@/lib/auth/password-change";
import { passwordChangeSchema } from "@/lib/auth/schemas";
import { reissuedSessionCookie } from "@/lib/auth/session-token";
import { env } from "@/lib/env";
import { readJson, route } from "@/lib/http";
import { clientIp } from "@/lib/security/client-ip";

/**
 * `{ currentPassword, newPassword, revokeApiKeys? }` → 200 `{ revokedApiKeys }`. Every other sign-in of the user is
 * refused from now on; this browser gets a re-issued session cookie and stays signed in. A wrong current password
 * is a 403 `wrong_password` and changes nothing.
 */
export const POST = route("user", async ({ req, user }) => {
  const input = await readJson(req, passwordChangeSchema);
  const { tokenVersion, revokedApiKeys } = await changePassword(
    user,
    input,
    clientIp(req.headers, env.TRUSTED_PROXY_HOPS),
  );
  const headers = new Headers({ "cache-control": "no-store" });
  const cookie = await reissuedSessionCookie(tokenVersion, SESSION_MAX_AGE_SECONDS);
  if (cookie) headers.append("set-cookie", cookie);
  return Response.json({ revokedApiKeys }, { headers });
});
