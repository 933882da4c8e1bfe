import { renameSessionSchema } from "@/lib/chat/schemas";
import {
  deleteSessionForUser,
  getMessagesBySessionId,
  getSessionForUserOrThrow,
  renameSessionForUser,
} from "@/lib/db/sessions";
import { readJson, route } from "@/lib/http";
import { intParam } from "@/lib/http-query";

type Params = { id: string };

/** The session and its history, newest page first (`?before=<seq>` pages back; `limit` up to 500). */
export const GET = route<Params>("user", async ({ req, params, user }) => {
  const url = new URL(req.url);
  const session = await getSessionForUserOrThrow({ sessionId: params.id, userId: user.id });
  const page = await getMessagesBySessionId({
    sessionId: session.id,
    beforeSeq: intParam(url, "before", { min: 1, max: Number.MAX_SAFE_INTEGER }),
    limit: intParam(url, "limit", { min: 1, max: 500, fallback: 200 }) ?? 200,
  });
  return Response.json({ session, ...page });
});

export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { title } = await readJson(req, renameSessionSchema);
  const session = await renameSessionForUser({ sessionId: params.id, userId: user.id, title });
  return Response.json({ session });
});

export const DELETE = route<Params>("user", async ({ params, user }) => {
  const receipt = await deleteSessionForUser({ sessionId: params.id, userId: user.id });
  return Response.json({ receipt });
});
