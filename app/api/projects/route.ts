import { createProjectSchema } from "@/lib/api/project-schemas";
import { createProject, listProjectsByUserId } from "@/lib/db/projects";
import { readJson, route } from "@/lib/http";

/** The user's projects, most recently changed first → `{ projects: [{ id, name, instructions, sessionCount, … }] }`. */
export const GET = route("user", async ({ user }) => {
  return Response.json({ projects: await listProjectsByUserId({ userId: user.id }) });
});

/** `{ name, instructions? }` → 201 `{ project }`. */
export const POST = route("user", async ({ req, user }) => {
  const input = await readJson(req, createProjectSchema);
  const project = await createProject({ userId: user.id, ...input });
  return Response.json({ project }, { status: 201 });
});
