import { updateFactSchema } from "@/lib/api/memory-schemas";
import { deleteFactForUser, updateFactTextForUser } from "@/lib/db/memories";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/** `{ text }` → `{ memory }`; someone else's fact is a 404. */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { text } = await readJson(req, updateFactSchema);
  const memory = await updateFactTextForUser({ userId: user.id, factId: params.id, text });
  return Response.json({ memory });
});

/** Deletes the fact and the earlier ones it replaced → `{ deleted: { MemoryFact } }`; someone else's is a 404. */
export const DELETE = route<Params>("user", async ({ params, user }) => {
  return Response.json(await deleteFactForUser({ userId: user.id, factId: params.id }));
});
