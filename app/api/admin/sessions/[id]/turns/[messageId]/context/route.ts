import { getTurnContextForAdmin } from "@/lib/db/admin";
import { route } from "@/lib/http";

export const GET = route<{ id: string; messageId: string }, "admin">("admin", async ({ params }) => {
  const context = await getTurnContextForAdmin({ sessionId: params.id, messageId: params.messageId });
  return Response.json({ context });
});
