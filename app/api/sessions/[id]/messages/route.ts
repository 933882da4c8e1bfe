import { turnInputSchema } from "@/lib/chat/schemas";
import { startTurn } from "@/lib/chat/turn";
import { readJson, route } from "@/lib/http";
import { limits } from "@/lib/rate-limit";

export const dynamic = "force-dynamic";

export const POST = route<{ id: string }>("user", async ({ req, params, user }) => {
  const input = await readJson(req, turnInputSchema);
  await limits().assertTurnAllowed(user.id);
  const stream = await startTurn({ sessionId: params.id, userId: user.id, input });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
