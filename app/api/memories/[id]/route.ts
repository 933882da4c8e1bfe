import { updateFactSchema } from "@/lib/api/memory-schemas";
import { acceptFact } from "@/lib/chat/extraction-job";
import { getFactWithHistoryForUser } from "@/lib/db/fact-history";
import { deleteFactForUser, updateFactForUser } from "@/lib/db/memories";
import { moveFactForUser } from "@/lib/db/projects";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/** → `{ memory }` with `expiresAt` and `history: [{ text, changedAt, change, by, sourceMessageId }]`, oldest first. */
export const GET = route<Params>("user", async ({ params, user }) => {
  const memory = await getFactWithHistoryForUser({ userId: user.id, factId: params.id });
  return Response.json({ memory });
});

/**
 * `{ text?, expiresAt?: ISO | null }` → `{ memory }` edits; `{ status: "active", text? }` accepts (a suggestion
 * becomes active, with the text corrected); `{ projectId: id | null }` moves it into one of the user's projects or to
 * global (decision 036). Someone else's fact or project is a 404.
 */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { status, text, expiresAt, projectId } = await readJson(req, updateFactSchema);
  if (projectId !== undefined) await moveFactForUser({ userId: user.id, factId: params.id, projectId });
  if (projectId !== undefined && status === undefined && text === undefined && expiresAt === undefined) {
    return Response.json({ memory: await getFactWithHistoryForUser({ userId: user.id, factId: params.id }) });
  }
  const memory =
    status === "active"
      ? await acceptFact({ userId: user.id, factId: params.id, text })
      : await updateFactForUser({ userId: user.id, factId: params.id, text, expiresAt });
  return Response.json({ memory });
});

/**
 * Deletes the fact and the earlier ones it replaced → `{ deleted: { MemoryFact } }` (for a suggestion: dismisses
 * it); someone else's is a 404.
 */
export const DELETE = route<Params>("user", async ({ params, user }) => {
  return Response.json(await deleteFactForUser({ userId: user.id, factId: params.id }));
});
