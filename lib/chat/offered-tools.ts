import "server-only";
import type { BuiltContext, ToolDefinition } from "@/lib/context";
import { isStorageError } from "@/lib/db/errors";
import { env } from "@/lib/env";
import type { ToolSpec } from "@/lib/llm";
import { mcpToolsFor, toolDefinitionText, type UnavailableServer } from "@/lib/mcp";
import { errorText } from "./stream-answer";
import { toolsFor } from "./tools";

// The tools a turn offers: Recall's own and those of the MCP servers switched on in the conversation. Read before
// the turn's transaction (starting a server may take a while); a server that cannot be reached only leaves its
// tools out, and the recorded context says why.

export interface OfferedTools {
  tools: ToolSpec[];
  unavailable: UnavailableServer[];
}

export async function offeredTools({
  sessionId,
  userId,
  longTermMemory,
}: {
  sessionId: string;
  userId: string;
  longTermMemory: boolean;
}): Promise<OfferedTools> {
  if (env.TOOL_MAX_STEPS <= 0) return { tools: [], unavailable: [] };
  const own = toolsFor({ longTermMemory });
  try {
    const mcp = await mcpToolsFor({ sessionId, userId });
    for (const u of mcp.unavailable) {
      console.warn(`[chat] tool server ${u.server} is unavailable in session ${sessionId}: ${u.reason}`);
    }
    return { tools: [...own, ...mcp.tools], unavailable: mcp.unavailable };
  } catch (e) {
    // The server list itself could not be read: the turn goes on with Recall's own tools. The reason is shown in
    // the context inspector, so it is worded here; the error itself goes to the log.
    console.warn(`[chat] the tool servers of session ${sessionId} could not be listed: ${errorText(e)}`);
    const reason = `The tool servers could not be listed: ${
      isStorageError(e) ? "the database was busy or unavailable" : "an unexpected error"
    }.`;
    return { tools: own, unavailable: [{ serverId: "*", server: "*", reason }] };
  }
}

export const toolDefinitions = (tools: readonly ToolSpec[]): ToolDefinition[] =>
  tools.map((t) => ({ name: t.name, text: toolDefinitionText(t) }));

/** The offered tools the context had room for. */
export function toolsKept(tools: readonly ToolSpec[], context: BuiltContext): ToolSpec[] {
  const kept = new Set(context.tools.map((e) => e.preview));
  return tools.filter((t) => kept.has(t.name));
}

/**
 * The trace of what was offered, first in the recorded context: each tool definition sent with its tokens, then a
 * zero-token line per server whose tools are missing, with the reason.
 */
export function toolTrace(context: BuiltContext, unavailable: readonly UnavailableServer[]) {
  return [
    ...context.tools,
    ...unavailable.map((u) => ({
      source: "tools" as const,
      role: "system" as const,
      chars: 0,
      tokens: 0,
      preview: `${u.server}: ${u.reason}`,
      unavailable: u.server,
    })),
  ];
}
