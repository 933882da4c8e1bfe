import { readJson, route } from "@/lib/http";
import { modelInput } from "@/lib/models/config";
import { createAdminModel, listAdminModels } from "@/lib/models/registry";

/** Every model (the deployment's read-only), with `hasApiKey` in place of the key, which is never returned. */
export const GET = route("admin", async () => Response.json({ models: await listAdminModels() }));

/** `{ name, provider, baseUrl?, apiKey?, modelId, contextTokens?, vision?, tools?, enabled? }` → 201. */
export const POST = route("admin", async ({ req, user }) => {
  const input = await readJson(req, modelInput);
  return Response.json({ model: await createAdminModel({ actorId: user.id, input }) }, { status: 201 });
});
