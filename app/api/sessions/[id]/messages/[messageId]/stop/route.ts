import { stopAnswer } from "@/lib/chat/live";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

/** Stops an answer being written, from any tab or instance; 200 also for one that has already ended. */
export const POST = route<{ id: string; messageId: string }>("user", async ({ params, user }) =>
  Response.json(await stopAnswer({ sessionId: params.id, messageId: params.messageId, userId: user.id })),
);
