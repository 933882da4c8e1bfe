import { chatCompletion } from "@/lib/api/chat-completions";
import { v1Route } from "@/lib/api/v1-route";

export const dynamic = "force-dynamic";

/** OpenAI's Chat Completions with server-side memory; see lib/api/chat-completions.ts and README. */
export const POST = v1Route(({ req, user }) => chatCompletion({ req, userId: user.id }));
