import { describe, expect, it, vi } from "vitest";
import { expectConsoleWarn } from "@/test/console";

// What a turn offers when the MCP server list cannot be read: Recall's own tools, and a reason the context inspector
// shows — worded by the app, never the database's or the code's own message.

const listing = vi.fn<() => Promise<unknown>>();
vi.mock("@/lib/mcp", async (original) => ({
  ...(await original<typeof import("@/lib/mcp")>()),
  mcpToolsFor: () => listing(),
}));

const { offeredTools } = await import("./offered-tools");

function prismaError(message: string): Error {
  const error = new Error(message);
  error.name = "PrismaClientKnownRequestError";
  return error;
}

describe("offeredTools when the tool servers cannot be listed", () => {
  it.each([
    [
      "the database failed",
      prismaError("Invalid `prisma.mcpServer.findMany()` invocation: Operation has timed out"),
      /the database was busy or unavailable\.$/,
    ],
    [
      "something else threw",
      new TypeError("Cannot read properties of undefined (reading 'url')"),
      /an unexpected error\.$/,
    ],
  ])("%s: Recall's own tools, and a reason without the error's own words", async (_, error, wording) => {
    listing.mockRejectedValueOnce(error);
    expectConsoleWarn(/could not be listed/);
    const offered = await offeredTools({ sessionId: "s1", userId: "u1", longTermMemory: true });
    expect(offered.tools.map((t) => t.name)).toContain("remember");
    expect(offered.unavailable).toHaveLength(1);
    const reason = offered.unavailable[0]?.reason ?? "";
    expect(reason).toMatch(/^The tool servers could not be listed: /);
    expect(reason).toMatch(wording);
    expect(reason).not.toMatch(/prisma|invocation|properties|undefined/i);
  });
});
