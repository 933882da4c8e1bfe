import { updateFactSchema } from "@/lib/api/memory-schemas";
import { acceptFact } from "@/lib/chat/extraction-job";
import { deleteFactForUser, updateFactTextForUser } from "@/lib/db/memories";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/**
 * `{ text }` → `{ memory }` edits; `{ status: "active", text? }` accepts (a suggestion becomes active, with the
 * text corrected). Someone else's fact is a 404.
 */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { status, text } = await readJson(req, updateFactSchema);
  const memory =
    status === "active"
      ? await acceptFact({ userId: user.id, factId: params.id, text })
      : await updateFactTextForUser({ userId: user.id, factId: params.id, text: text as string });
  return Response.json({ memory });
});

/**
 * Deletes the fact and the earlier ones it replaced → `{ deleted: { MemoryFact } }` (for a suggestion: dismisses
 * it); someone else's is a 404.
 */
export const DELETE = route<Params>("user", async ({ params, user }) => {
  return Response.json(await deleteFactForUser({ userId: user.id, factId: params.id }));
});
