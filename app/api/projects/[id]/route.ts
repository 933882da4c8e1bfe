import { updateProjectSchema } from "@/lib/api/project-schemas";
import { deleteProjectForUser, updateProjectForUser } from "@/lib/db/projects";
import { readJson, route } from "@/lib/http";
import { boolParam } from "@/lib/http-query";

type Params = { id: string };

/** `{ name?, instructions? }` → `{ project }`; someone else's project is a 404. */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const input = await readJson(req, updateProjectSchema);
  const project = await updateProjectForUser({ projectId: params.id, userId: user.id, ...input });
  return Response.json({ project });
});

/**
 * Deletes the project → `{ receipt }`. By default its conversations and facts go with it (counted in the receipt);
 * `?keep=true` moves them out first (conversations outside any project, facts global); `?keepFacts=true` deletes
 * the conversations but keeps every fact of the project (global, source "a deleted conversation" where learned there).
 */
export const DELETE = route<Params>("user", async ({ req, params, user }) => {
  const url = new URL(req.url);
  const receipt = await deleteProjectForUser({
    projectId: params.id,
    userId: user.id,
    keep: boolParam(url, "keep"),
    keepFacts: boolParam(url, "keepFacts"),
  });
  return Response.json({ receipt });
});
