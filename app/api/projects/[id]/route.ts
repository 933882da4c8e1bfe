import { updateProjectSchema } from "@/lib/api/project-schemas";
import { deleteProjectForUser, updateProjectForUser } from "@/lib/db/projects";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/** `{ name?, instructions? }` → `{ project }`; someone else's project is a 404. */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const input = await readJson(req, updateProjectSchema);
  const project = await updateProjectForUser({ projectId: params.id, userId: user.id, ...input });
  return Response.json({ project });
});

/**
 * Deletes the project → `{ receipt }`. By default its conversations and facts go with it (counted in the receipt);
 * `?keep=true` moves them out first (conversations outside any project, facts global).
 */
export const DELETE = route<Params>("user", async ({ req, params, user }) => {
  const keep = new URL(req.url).searchParams.get("keep") === "true";
  const receipt = await deleteProjectForUser({ projectId: params.id, userId: user.id, keep });
  return Response.json({ receipt });
});
