import { AppError } from "@/lib/errors";
import { readJson, route } from "@/lib/http";
import { mcpManager, mcpServerStatus, probeMcpServer } from "@/lib/mcp";
import { serverPatch } from "@/lib/mcp/config";
import { deleteServer, getServerConfig, updateServer, viewOf } from "@/lib/mcp/servers";

type Params = { id: string };

/** The server with its state (`running | failed | stopped`, last error, tool names); `?connect=1` starts it first. */
export const GET = route<Params, "admin">("admin", async ({ req, params }) => {
  const config = await getServerConfig(params.id);
  if (!config) throw new AppError("not_found", "There is no such tool server.");
  const connect = new URL(req.url).searchParams.get("connect") === "1";
  const status = connect ? await probeMcpServer(config) : mcpServerStatus(config.id);
  return Response.json({ server: { ...viewOf(config), status } });
});

/** Any subset of the fields; masked secrets sent back unchanged keep their values. */
export const PATCH = route<Params, "admin">("admin", async ({ req, params, user }) => {
  const patch = await readJson(req, serverPatch);
  const updated = await updateServer({ actorId: user.id, id: params.id, patch });
  // The next use starts it with the new configuration.
  await mcpManager.stop(updated.id);
  return Response.json({ server: { ...viewOf(updated), status: mcpServerStatus(updated.id) } });
});

export const DELETE = route<Params, "admin">("admin", async ({ params, user }) => {
  await deleteServer({ actorId: user.id, id: params.id });
  await mcpManager.stop(params.id);
  return new Response(null, { status: 204 });
});
