import { deleteMyAccount, updateProfile } from "@/lib/auth/account";
import { deleteAccountSchema, profileSchema } from "@/lib/auth/schemas";
import { clearedSessionCookies } from "@/lib/auth/session-token";
import { env } from "@/lib/env";
import { readJson, route } from "@/lib/http";
import { clientIp } from "@/lib/security/client-ip";

/**
 * `{ name?, email?, currentPassword? }` → `{ user }`. A new email needs `currentPassword` (422 without it, 403
 * `wrong_password` when wrong); an email another account has is a 409 `email_taken`.
 */
export const PATCH = route("user", async ({ req, user }) => {
  const input = await readJson(req, profileSchema);
  const updated = await updateProfile(user, input, clientIp(req.headers, env.TRUSTED_PROXY_HOPS));
  return Response.json({ user: { id: updated.id, name: updated.name, email: updated.email } });
});

/**
 * `{ password }` → `{ receipt }`: the account and everything in it are deleted (the administrator's cascade and
 * receipt) and this browser's session cookie is cleared. 403 `wrong_password`; 409 `last_admin` for the only
 * administrator.
 */
export const DELETE = route("user", async ({ req, user }) => {
  const { password } = await readJson(req, deleteAccountSchema);
  const receipt = await deleteMyAccount(user, password, clientIp(req.headers, env.TRUSTED_PROXY_HOPS));
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of await clearedSessionCookies()) headers.append("set-cookie", cookie);
  return Response.json({ receipt }, { headers });
});
