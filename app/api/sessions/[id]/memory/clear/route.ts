import { clearMemory } from "@/lib/chat/memory-settings";
import { route } from "@/lib/http";

/** The model forgets everything said so far in this conversation; the history stays. */
export const POST = route<{ id: string }>("user", async ({ params, user }) => {
  return Response.json(await clearMemory({ sessionId: params.id, userId: user.id }));
});
