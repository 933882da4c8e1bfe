import { createApiKeySchema } from "@/lib/api/schemas";
import { createApiKey, listApiKeysByUserId } from "@/lib/db/api-keys";
import { readJson, route } from "@/lib/http";

/** `{ name }` → 201 `{ id, name, prefix, key }`: the only time the key itself is shown. */
export const POST = route("user", async ({ req, user }) => {
  const { name } = await readJson(req, createApiKeySchema);
  const created = await createApiKey({ userId: user.id, name });
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});

/** The user's working keys: `[{ id, name, prefix, createdAt, lastUsedAt }]`. */
export const GET = route("user", async ({ user }) => {
  return Response.json(await listApiKeysByUserId({ userId: user.id }));
});
