import { readJson, route } from "@/lib/http";
import { modelPatch } from "@/lib/models/config";
import { deleteAdminModel, updateAdminModel } from "@/lib/models/registry";

type Params = { id: string };

/** Any subset of the fields; `apiKey` omitted keeps the stored key, null removes it. */
export const PATCH = route<Params, "admin">("admin", async ({ req, params, user }) => {
  const patch = await readJson(req, modelPatch);
  return Response.json({ model: await updateAdminModel({ actorId: user.id, id: params.id, patch }) });
});

export const DELETE = route<Params, "admin">("admin", async ({ params, user }) => {
  await deleteAdminModel({ actorId: user.id, id: params.id });
  return new Response(null, { status: 204 });
});
