import "server-only";
import { getSessionMcpSwitches } from "@/lib/db/mcp-servers";
import type { ToolSpec } from "@/lib/llm";
import { type McpServerConfig, TOOL_SEPARATOR } from "./config";
import { createMcpManager, type McpManager, type ServerStatus } from "./manager";
import { listServerConfigs } from "./servers";

// The MCP tools of a turn (docs/decisions/025-mcp-tools.md): what to offer the model, and how to run a call. The
// turn's tool loop needs only `mcpToolsFor` and `callMcpTool`; neither throws.

export type { McpServerConfig } from "./config";
export type { ServerStatus } from "./manager";

// One manager per process, kept across Next.js dev reloads so server processes are not orphaned.
const globalForMcp = globalThis as unknown as { recallMcpManager?: McpManager };
globalForMcp.recallMcpManager ??= createMcpManager();
export const mcpManager: McpManager = globalForMcp.recallMcpManager;

/** OpenAI function names: [a-zA-Z0-9_-], at most 64 characters. */
const MAX_NAME = 64;
const safe = (tool: string) => tool.replace(/[^a-zA-Z0-9_-]/g, "_");

/** `server__tool`, or null when the result would be longer than a function name may be. */
function offeredName(server: string, tool: string): string | null {
  const name = `${server}${TOOL_SEPARATOR}${safe(tool)}`;
  return name.length <= MAX_NAME ? name : null;
}

/** Whether a tool call's name is an MCP tool's (Recall's own tools have no double underscore). */
export const isMcpToolName = (name: string) => name.includes(TOOL_SEPARATOR);

export interface UnavailableServer {
  serverId: string;
  server: string;
  /** Why its tools are missing from this turn, for the trace. */
  reason: string;
}

export interface McpTools {
  /** Offered beside Recall's own; `parameters` is the server's JSON schema as it sent it. */
  tools: ToolSpec[];
  unavailable: UnavailableServer[];
}

/**
 * The tools of the servers that are enabled and switched on in this conversation (on unless the user switched
 * them off), starting servers that are not running yet. A server that fails is listed in `unavailable`.
 */
export async function mcpToolsFor({
  sessionId,
  userId,
}: {
  sessionId: string;
  userId: string;
}): Promise<McpTools> {
  const enabled = (await listServerConfigs()).filter((c) => c.enabled);
  // Without any server there is nothing to switch: a turn then pays one small read, not two.
  if (enabled.length === 0) return { tools: [], unavailable: [] };
  const switches = await getSessionMcpSwitches({ sessionId, userId });
  const chosen = enabled.filter((c) => switches?.[c.id] !== false);
  const results = await Promise.all(chosen.map(async (c) => ({ c, listed: await mcpManager.toolsOf(c) })));
  const tools: ToolSpec[] = [];
  const unavailable: UnavailableServer[] = [];
  for (const { c, listed } of results) {
    if (!listed.ok) {
      unavailable.push({ serverId: c.id, server: c.name, reason: listed.reason });
      continue;
    }
    for (const t of listed.tools) {
      const name = offeredName(c.name, t.name);
      if (!name) continue;
      tools.push({ name, description: t.description ?? t.title ?? t.name, parameters: t.inputSchema });
    }
  }
  return { tools, unavailable };
}

export interface McpCallResult {
  ok: boolean;
  /** What the model is sent, as a tool result: JSON `{ output }` or `{ error }`, never instructions. */
  text: string;
  /** False when nothing was sent to the server (stopped turn, unknown tool, bad arguments, server down). */
  executed: boolean;
}

const failure = (error: string, executed = false): McpCallResult => ({
  ok: false,
  text: JSON.stringify({ error }),
  executed,
});

async function resolve(name: string): Promise<{ config: McpServerConfig; tool: string } | string> {
  const at = name.indexOf(TOOL_SEPARATOR);
  const serverName = name.slice(0, at);
  const config = (await listServerConfigs()).find((c) => c.name === serverName);
  if (!config?.enabled) return `There is no tool named ${name}.`;
  const listed = await mcpManager.toolsOf(config);
  if (!listed.ok) return `The ${serverName} server is not available: ${listed.reason}`;
  const tool = listed.tools.find((t) => offeredName(config.name, t.name) === name);
  return tool ? { config, tool: tool.name } : `There is no tool named ${name}.`;
}

/**
 * Runs one call of an offered MCP tool: never when `signal` is already aborted, arguments checked against the
 * tool's schema, within the server's timeout, the output cut to its maxResultChars with a note. Never throws.
 * `args` is the model's argument string (JSON).
 */
export async function callMcpTool({
  name,
  arguments: args,
  signal,
}: {
  name: string;
  arguments: string;
  signal?: AbortSignal | undefined;
}): Promise<McpCallResult> {
  if (signal?.aborted) return failure("The turn was stopped; the tool was not called.");
  let parsed: unknown;
  try {
    parsed = args.trim() === "" ? {} : JSON.parse(args);
  } catch {
    return failure("The arguments are not valid JSON.");
  }
  try {
    const target = await resolve(name);
    if (typeof target === "string") return failure(target);
    const outcome = await mcpManager.call(target.config, target.tool, parsed, { signal });
    if (!outcome.ok) return failure(outcome.text, outcome.executed);
    return { ok: true, text: JSON.stringify({ output: outcome.text }), executed: true };
  } catch (e) {
    // Storage failing while resolving the server: still a result, not an exception.
    return failure(`The ${name} tool could not be run: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The server's state in this process (each instance runs its own connections). */
export const mcpServerStatus = (serverId: string): ServerStatus => mcpManager.status(serverId);

/** Starts the server if needed and returns its state (the admin's "test" action). */
export async function probeMcpServer(config: McpServerConfig): Promise<ServerStatus> {
  await mcpManager.toolsOf(config);
  return mcpManager.status(config.id);
}

/** Token accounting: the text a tool definition costs, as the model receives it. */
export const toolDefinitionText = (spec: ToolSpec) =>
  JSON.stringify({
    type: "function",
    function: { name: spec.name, description: spec.description, parameters: spec.parameters },
  });
