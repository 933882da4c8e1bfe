import { readJson, route } from "@/lib/http";
import { mcpServerStatus } from "@/lib/mcp";
import { serverInput } from "@/lib/mcp/config";
import { createServer, listServerConfigs, viewOf } from "@/lib/mcp/servers";

/** Every MCP server (MCP_SERVERS ones read-only), secrets masked, with its state in this instance. */
export const GET = route("admin", async () => {
  const servers = (await listServerConfigs()).map((c) => ({ ...viewOf(c), status: mcpServerStatus(c.id) }));
  return Response.json({ servers });
});

/** `{ name, transport, command?, args?, env?, url?, headers?, enabled, timeoutMs, maxResultChars }` → 201. */
export const POST = route("admin", async ({ req, user }) => {
  const input = await readJson(req, serverInput);
  const created = await createServer({ actorId: user.id, input });
  return Response.json(
    { server: { ...viewOf(created), status: mcpServerStatus(created.id) } },
    { status: 201 },
  );
});
