import { deleteProjectFileForUser } from "@/lib/db/project-files";
import { route } from "@/lib/http";

type Params = { id: string; fileId: string };

/** Deletes the file with its chunks and their index rows → `{ receipt: { fileId, deleted } }`. */
export const DELETE = route<Params>("user", async ({ params, user }) => {
  const receipt = await deleteProjectFileForUser({
    userId: user.id,
    projectId: params.id,
    fileId: params.fileId,
  });
  return Response.json({ receipt });
});
