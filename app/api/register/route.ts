import { registerUser } from "@/lib/auth/register";
import { registerSchema } from "@/lib/auth/schemas";
import { env } from "@/lib/env";
import { readJson, route } from "@/lib/http";
import { clientIp } from "@/lib/security/client-ip";

export const POST = route("public", async ({ req }) => {
  const input = await readJson(req, registerSchema);
  const user = await registerUser(input, { ip: clientIp(req.headers, env.TRUSTED_PROXY_HOPS) });
  return Response.json({ user: { id: user.id, email: user.email, name: user.name } }, { status: 201 });
});
