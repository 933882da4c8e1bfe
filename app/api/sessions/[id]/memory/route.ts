import { z } from "zod";
import { getMemoryState, updateMemorySettings } from "@/lib/chat/memory-settings";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/** What the conversation's memory holds and what the next turn will use. */
export const GET = route<Params>("user", async ({ params, user }) => {
  return Response.json(await getMemoryState({ sessionId: params.id, userId: user.id }));
});

/** Any of `enabled`, `policy`, `maxMessages`, `maxTokens`, `recall`, `recallMaxTokens`; applies at the next turn. */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const change = await readJson(req, z.unknown());
  return Response.json(await updateMemorySettings({ sessionId: params.id, userId: user.id, change }));
});
