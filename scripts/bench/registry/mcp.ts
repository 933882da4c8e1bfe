import path from "node:path";
import { Client, metaOf } from "../http";
import { turnContent } from "../plan";
import { fmtMs, table } from "../report";
import { round, type Summary, summarize } from "../stats";
import { workload } from "./types";

// MCP: a turn offering 20 tools of an MCP server (the stdio test server, started by the app) against the same turn
// with the server switched off in the conversation, interleaved on one server. The difference is what offering
// the tools costs a turn that does not call them: reading the conversation's switches and the server's cached
// tool list, and the definitions' tokens in every model call (the offline model does not count them in its usage,
// so the recorded context's count is compared).

const MCP_TOOLS = 20;
/** The test server's own tools (echo, slow, fail, large, instructions, pid, whoami); the rest are `lookup_<n>`. */
const OWN_TOOLS = 7;
const SERVER_ID = "env:bench";

interface Side {
  latency: Summary;
  /** What the turn's recorded context counts: its messages and the tool definitions offered. */
  contextTokens: number;
  toolsOffered: number;
}

export interface McpResult {
  turns: number;
  none: Side;
  offered: Side;
  /** median(offered) − median(none). */
  addedMs: number;
}

export const mcp = workload<McpResult>({
  id: "mcp",
  phase: "own",
  describe: (sizes) =>
    `MCP: ${sizes.w1Turns} turns offering ${MCP_TOOLS} MCP tools, against turns offering none …`,
  async run(ctx) {
    const server = await ctx.startServer({
      MCP_SERVERS: JSON.stringify([
        {
          name: "bench",
          transport: "stdio",
          command: process.execPath,
          args: ["--import", "tsx", path.resolve("scripts/mcp-test-server.ts")],
          env: { MCP_TEST_EXTRA_TOOLS: String(MCP_TOOLS - OWN_TOOLS) },
          enabled: true,
          timeoutMs: 10_000,
          maxResultChars: 20_000,
        },
      ]),
    });
    try {
      const owner = new Client(server.url, ctx.plan.owner.email);
      await owner.signIn(ctx.plan.owner.email, ctx.plan.password);
      const session = async (title: string) =>
        (await owner.json<{ session: { id: string } }>("POST", "/api/sessions", { title }, 201)).data.session
          .id;
      const on = await session("MCP bench: 20 tools");
      const off = await session("MCP bench: none");
      await owner.json("PATCH", `/api/sessions/${off}/tools`, { servers: { [SERVER_ID]: false } });
      const measure = async (sessionId: string, i: number) => {
        const t = await owner.turn(sessionId, turnContent("MCP", i));
        return { ms: t.totalMs, body: t.body };
      };
      // The first turn starts the server process; it is not measured.
      for (let i = 0; i < 2; i++) {
        await measure(on, -1 - i);
        await measure(off, -1 - i);
      }
      const samples = { on: [] as number[], off: [] as number[] };
      let last = { on: "", off: "" };
      const turns = ctx.sizes.w1Turns;
      for (let i = 0; i < turns; i++) {
        const a = await measure(i % 2 === 0 ? on : off, i);
        const b = await measure(i % 2 === 0 ? off : on, i);
        const [onTurn, offTurn] = i % 2 === 0 ? [a, b] : [b, a];
        samples.on.push(onTurn.ms);
        samples.off.push(offTurn.ms);
        last = { on: onTurn.body, off: offTurn.body };
      }
      const side = async (sessionId: string, body: string, ms: number[]): Promise<Side> => {
        const { answerId } = metaOf(body);
        const { data } = await owner.json<{
          context: { tokenEstimate: number; tools?: { preview: string }[] | null };
        }>("GET", `/api/sessions/${sessionId}/turns/${answerId}/context`);
        return {
          latency: summarize(ms),
          contextTokens: data.context.tokenEstimate,
          toolsOffered: (data.context.tools ?? []).filter((t) => t.preview.startsWith("bench__")).length,
        };
      };
      const offered = await side(on, last.on, samples.on);
      const none = await side(off, last.off, samples.off);
      return { turns, none, offered, addedMs: offered.latency.median - none.latency.median };
    } finally {
      await server.stop();
    }
  },
  checks: (r) => [
    {
      name: `MCP: the turn with the server on offered its ${MCP_TOOLS} tools, the other none`,
      ok: r.offered.toolsOffered === MCP_TOOLS && r.none.toolsOffered === 0,
      detail: `${r.offered.toolsOffered} and ${r.none.toolsOffered}`,
    },
    {
      name: "MCP: the offered definitions are counted in the context's tokens",
      ok: r.offered.contextTokens > r.none.contextTokens,
      detail: `${r.offered.contextTokens} vs ${r.none.contextTokens}`,
    },
  ],
  render: (r) => [
    "",
    `MCP: ${r.turns} turns each, interleaved; ${MCP_TOOLS} MCP tools offered (not called) vs none`,
    table(
      ["", "median", "p90", "max", "context tokens", "MCP tools offered"],
      [
        [
          "none",
          fmtMs(r.none.latency.median),
          fmtMs(r.none.latency.p90),
          fmtMs(r.none.latency.max),
          r.none.contextTokens,
          r.none.toolsOffered,
        ],
        [
          `${MCP_TOOLS} tools`,
          fmtMs(r.offered.latency.median),
          fmtMs(r.offered.latency.p90),
          fmtMs(r.offered.latency.max),
          r.offered.contextTokens,
          r.offered.toolsOffered,
        ],
      ],
    ),
    `  added latency (median): ${fmtMs(r.addedMs)}; added context tokens: ${round(r.offered.contextTokens - r.none.contextTokens)}`,
  ],
});
