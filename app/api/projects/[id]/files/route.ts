import { listProjectFilesForUser } from "@/lib/db/project-files";
import { route } from "@/lib/http";
import { uploadProjectFile } from "@/lib/projects/upload";

export const dynamic = "force-dynamic";

type Params = { id: string };

/** The project's files, newest first → `{ files: [{ id, name, mime, bytes, chunkCount, createdAt }] }`. */
export const GET = route<Params>("user", async ({ params, user }) => {
  return Response.json({ files: await listProjectFilesForUser({ userId: user.id, projectId: params.id }) });
});

/** One file in the multipart field `file` (text, Markdown, source code, PDF) → 201 `{ file }`, cut and indexed. */
export const POST = route<Params>("user", async ({ req, params, user }) => {
  const file = await uploadProjectFile({ userId: user.id, projectId: params.id, req });
  return Response.json({ file }, { status: 201 });
});
