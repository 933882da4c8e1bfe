import { resumeAnswer } from "@/lib/chat/live";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

/** Resumes an answer as the chat stream's events: the text so far, the rest live, then its end. */
export const GET = route<{ id: string; messageId: string }>("user", async ({ params, user }) => {
  const stream = await resumeAnswer({ sessionId: params.id, messageId: params.messageId, userId: user.id });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
});
