import "server-only";
import { AppError } from "@/lib/errors";
import { db, type Prisma, type Tx, type TxOption } from "./client";
import { isUniqueViolation } from "./errors";
import { inTx } from "./transaction";

// MCP servers configured by admins and the per-conversation switches. Secrets arrive and leave sealed
// (lib/mcp/servers.ts seals and opens them); audit entries hold ids, counts and field names only.

export interface McpServerRow {
  id: string;
  name: string;
  transport: string;
  command: string | null;
  args: Prisma.JsonValue;
  envSealed: string | null;
  url: string | null;
  headersSealed: string | null;
  enabled: boolean;
  timeoutMs: number;
  maxResultChars: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface McpServerData {
  name: string;
  transport: string;
  command: string | null;
  args: string[];
  envSealed: string | null;
  url: string | null;
  headersSealed: string | null;
  enabled: boolean;
  timeoutMs: number;
  maxResultChars: number;
}

const nameTaken = (name: string, cause: unknown) =>
  new AppError("conflict", `A tool server named ${name} already exists.`, {
    cause,
    details: [{ path: "name", message: "name is taken" }],
  });

const notFound = () => new AppError("not_found", "There is no such tool server.");

export async function listMcpServers(
  _args: Record<string, never> = {},
  { tx }: TxOption = {},
): Promise<McpServerRow[]> {
  return (tx ?? db).mcpServer.findMany({ orderBy: { name: "asc" } });
}

export async function getMcpServerById(
  { id }: { id: string },
  { tx }: TxOption = {},
): Promise<McpServerRow | null> {
  return (tx ?? db).mcpServer.findUnique({ where: { id } });
}

export async function createMcpServer(
  {
    actorId,
    data,
  }: {
    actorId: string;
    data: McpServerData;
  },
  { tx }: TxOption = {},
): Promise<McpServerRow> {
  try {
    return await inTx({ tx }, async (tx) => {
      const row = await tx.mcpServer.create({ data });
      await tx.auditLog.create({
        data: {
          actorId,
          action: "mcp_server.create",
          targetType: "McpServer",
          targetId: row.id,
          details: {
            args: data.args.length,
            secrets: Number(!!data.envSealed) + Number(!!data.headersSealed),
          },
        },
      });
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name, e);
    throw e;
  }
}

export async function updateMcpServer(
  {
    actorId,
    id,
    data,
    fields,
  }: {
    actorId: string;
    id: string;
    data: McpServerData;
    /** The names of the fields the admin changed (the audit's details). */
    fields: string[];
  },
  { tx }: TxOption = {},
): Promise<McpServerRow> {
  try {
    return await inTx({ tx }, async (tx) => {
      const { count } = await tx.mcpServer.updateMany({ where: { id }, data });
      if (count === 0) throw notFound();
      await tx.auditLog.create({
        data: {
          actorId,
          action: "mcp_server.update",
          targetType: "McpServer",
          targetId: id,
          details: { fields },
        },
      });
      return tx.mcpServer.findUniqueOrThrow({ where: { id } });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name, e);
    throw e;
  }
}

export async function deleteMcpServer(
  { actorId, id }: { actorId: string; id: string },
  { tx }: TxOption = {},
): Promise<void> {
  await inTx({ tx }, async (tx) => {
    const { count } = await tx.mcpServer.deleteMany({ where: { id } });
    if (count === 0) throw notFound();
    await tx.auditLog.create({
      data: { actorId, action: "mcp_server.delete", targetType: "McpServer", targetId: id, details: {} },
    });
  });
}

export type McpSwitches = Record<string, boolean>;

const switchesOf = (v: Prisma.JsonValue | null): McpSwitches =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, boolean] => typeof e[1] === "boolean"))
    : {};

/** The conversation's switches, or null when it is not the user's (the caller answers 404). */
export async function getSessionMcpSwitches(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx }: TxOption = {},
): Promise<McpSwitches | null> {
  const row = await (tx ?? db).chatSession.findFirst({
    where: { id: sessionId, userId },
    select: { mcpSwitches: true },
  });
  return row ? switchesOf(row.mcpSwitches) : null;
}

/** Merges `switches` into the conversation's; null when it is not the user's. */
export async function updateSessionMcpSwitches(
  { sessionId, userId, switches }: { sessionId: string; userId: string; switches: McpSwitches },
  { tx }: TxOption = {},
): Promise<McpSwitches | null> {
  const run = async (t: Tx) => {
    const current = await getSessionMcpSwitches({ sessionId, userId }, { tx: t });
    if (current === null) return null;
    const next = { ...current, ...switches };
    await t.chatSession.updateMany({ where: { id: sessionId, userId }, data: { mcpSwitches: next } });
    return next;
  };
  return inTx({ tx }, run);
}
