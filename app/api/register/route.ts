import { registerUser } from "@/lib/auth/register";
import { registerSchema } from "@/lib/auth/schemas";
import { readJson, route } from "@/lib/http";

export const POST = route("public", async ({ req }) => {
  const input = await readJson(req, registerSchema);
  const user = await registerUser(input);
  return Response.json({ user: { id: user.id, email: user.email, name: user.name } }, { status: 201 });
});
