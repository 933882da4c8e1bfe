import { deleteUserFactsForAdmin } from "@/lib/db/memories";
import { route } from "@/lib/http";

/** Deletes every long-term fact of the user → `{ deleted: { MemoryFact } }` (audited with the count, no text). */
export const DELETE = route<{ id: string }, "admin">("admin", async ({ params, user }) => {
  return Response.json(await deleteUserFactsForAdmin({ actorId: user.id, userId: params.id }));
});
