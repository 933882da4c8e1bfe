import "server-only";
import { z } from "zod";
import { getSessionMcpSwitches, updateSessionMcpSwitches } from "@/lib/db/mcp-servers";
import { AppError } from "@/lib/errors";
import { listServerConfigs } from "./servers";

// Per conversation, each enabled server is on unless the user switched it off (the chat header's tools menu).

export const sessionToolsPatch = z
  .object({ servers: z.record(z.string().min(1).max(100), z.boolean()) })
  .strict();

export interface SessionTools {
  /** Every enabled server: whether it is on in this conversation. */
  servers: Record<string, boolean>;
  available: { id: string; name: string }[];
}

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");

async function view(switches: Record<string, boolean>): Promise<SessionTools> {
  const enabled = (await listServerConfigs()).filter((c) => c.enabled);
  return {
    servers: Object.fromEntries(enabled.map((c) => [c.id, switches[c.id] !== false])),
    available: enabled.map((c) => ({ id: c.id, name: c.name })),
  };
}

export async function getSessionTools({ sessionId, userId }: { sessionId: string; userId: string }) {
  const switches = await getSessionMcpSwitches({ sessionId, userId });
  if (switches === null) throw notFound();
  return view(switches);
}

export async function updateSessionTools({
  sessionId,
  userId,
  servers,
}: {
  sessionId: string;
  userId: string;
  servers: Record<string, boolean>;
}) {
  const known = new Set((await listServerConfigs()).filter((c) => c.enabled).map((c) => c.id));
  const unknown = Object.keys(servers).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new AppError("validation_failed", `There is no enabled tool server ${unknown[0]}.`, {
      details: unknown.map((id) => ({ path: `servers.${id}`, message: "no such enabled server" })),
    });
  }
  const next = await updateSessionMcpSwitches({ sessionId, userId, switches: servers });
  if (next === null) throw notFound();
  return view(next);
}
