import { getTurnContextByMessageId } from "@/lib/db/turn-contexts";
import { route } from "@/lib/http";

export const GET = route<{ id: string; messageId: string }>("user", async ({ params, user }) => {
  const context = await getTurnContextByMessageId({
    sessionId: params.id,
    userId: user.id,
    messageId: params.messageId,
  });
  return Response.json({ context });
});
