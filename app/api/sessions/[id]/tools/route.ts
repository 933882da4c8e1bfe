import { readJson, route } from "@/lib/http";
import { getSessionTools, sessionToolsPatch, updateSessionTools } from "@/lib/mcp/session-tools";

type Params = { id: string };

/** `{ servers: { <id>: boolean }, available: [{ id, name }] }` for the conversation's owner; 404 otherwise. */
export const GET = route<Params>("user", async ({ params, user }) => {
  return Response.json(await getSessionTools({ sessionId: params.id, userId: user.id }));
});

/** `{ servers: { <id>: boolean } }`, merged into the conversation's switches. */
export const PATCH = route<Params>("user", async ({ req, params, user }) => {
  const { servers } = await readJson(req, sessionToolsPatch);
  return Response.json(await updateSessionTools({ sessionId: params.id, userId: user.id, servers }));
});
