import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { McpServerConfig } from "./config";
import { resultText, truncate } from "./result";

// One connection per configured server, through the official SDK client. A server is started on first use and kept
// alive; when it crashes it is restarted once after a backoff (doubling per consecutive failure, capped), and after
// that on the next use once the backoff has passed. Nothing here throws to the caller: a server that cannot be
// reached yields a reason, a call that fails yields an error result.

export type ServerState = "running" | "failed" | "stopped";

export interface ServerStatus {
  state: ServerState;
  lastError: string | null;
  toolNames: string[];
  /** When the next start may happen (failed servers only). */
  retryAt: Date | null;
}

export type ToolsOutcome = { ok: true; tools: Tool[] } | { ok: false; reason: string };

export interface CallOutcome {
  ok: boolean;
  /** The tool's output (ok) or what went wrong; plain text, truncated to the server's maxResultChars. */
  text: string;
  /** False when the server was never asked (stopped turn, unavailable server, invalid arguments). */
  executed: boolean;
}

export interface ManagerOptions {
  /** First restart delay; doubles per consecutive failure up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Connecting and listing tools, per attempt. */
  connectTimeoutMs?: number;
}

interface Connection {
  config: McpServerConfig;
  fingerprint: string;
  client: Client | null;
  state: ServerState;
  lastError: string | null;
  tools: Tool[];
  validators: Map<string, JsonSchemaValidator<unknown>>;
  failures: number;
  startedAt: number;
  retryAt: number | null;
  retryTimer: NodeJS.Timeout | null;
  connecting: Promise<void> | null;
  stderr: string;
}

const STDERR_TAIL = 2000;

const fingerprintOf = (c: McpServerConfig) =>
  JSON.stringify([c.transport, c.command, c.args, c.env, c.url, c.headers, c.enabled]);

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface McpManager {
  /** The server's tools, starting it when needed. */
  toolsOf(config: McpServerConfig): Promise<ToolsOutcome>;
  /** Calls one tool by its own (not namespaced) name; never throws. */
  call(
    config: McpServerConfig,
    tool: string,
    args: unknown,
    options: { signal?: AbortSignal | undefined },
  ): Promise<CallOutcome>;
  status(serverId: string): ServerStatus;
  /** Closes the server's connection (its process exits); the next use starts it again. */
  stop(serverId: string): Promise<void>;
  stopAll(): Promise<void>;
  /** "state" (serverId, status) after every change. */
  events: EventEmitter;
}

export function createMcpManager(options: ManagerOptions = {}): McpManager {
  const backoffMs = options.backoffMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 60_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 15_000;
  const connections = new Map<string, Connection>();
  const events = new EventEmitter();
  const validatorFactory = new AjvJsonSchemaValidator();

  const statusOf = (c: Connection | undefined): ServerStatus =>
    c
      ? {
          state: c.state,
          lastError: c.lastError,
          toolNames: c.state === "running" ? c.tools.map((t) => t.name) : [],
          retryAt: c.state === "failed" && c.retryAt ? new Date(c.retryAt) : null,
        }
      : { state: "stopped", lastError: null, toolNames: [], retryAt: null };

  const emit = (c: Connection) => events.emit("state", c.config.id, statusOf(c));

  function clearRetry(c: Connection) {
    if (c.retryTimer) clearTimeout(c.retryTimer);
    c.retryTimer = null;
  }

  async function closeClient(c: Connection) {
    const client = c.client;
    c.client = null;
    if (client) await client.close().catch(() => {});
  }

  function fail(c: Connection, error: string, { restart }: { restart: boolean }) {
    // A server that ran for longer than the longest backoff starts its count again.
    if (c.state === "running" && Date.now() - c.startedAt > maxBackoffMs) c.failures = 0;
    c.failures += 1;
    const delay = Math.min(backoffMs * 2 ** (c.failures - 1), maxBackoffMs);
    const stderr = c.stderr.trim();
    c.state = "failed";
    c.lastError = stderr ? `${error} (stderr: ${stderr.slice(-500)})` : error;
    c.tools = [];
    c.validators.clear();
    c.retryAt = Date.now() + delay;
    clearRetry(c);
    if (restart) {
      c.retryTimer = setTimeout(() => {
        c.retryTimer = null;
        void start(c);
      }, delay);
      c.retryTimer.unref();
    }
    console.warn(`[mcp] server ${c.config.name} failed: ${c.lastError}; next start in ${delay} ms`);
    emit(c);
  }

  function transportFor(c: Connection): Transport {
    const { config } = c;
    if (config.transport === "http") {
      return new StreamableHTTPClientTransport(new URL(config.url ?? ""), {
        requestInit: { headers: config.headers },
      });
    }
    const transport = new StdioClientTransport({
      command: config.command ?? "",
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      stderr: "pipe",
    });
    (transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => {
      c.stderr = (c.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    return transport;
  }

  async function listAllTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout: connectTimeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  function start(c: Connection): Promise<void> {
    if (c.connecting) return c.connecting;
    clearRetry(c);
    c.connecting = (async () => {
      await closeClient(c);
      c.stderr = "";
      const client = new Client({ name: "recall", version: "1.0.0" });
      client.onclose = () => {
        // Only the current, running client's end is a crash; stop() and restarts close clients on purpose.
        if (c.client === client && c.state === "running") {
          c.client = null;
          fail(c, "the server closed the connection", { restart: true });
        }
      };
      try {
        await client.connect(transportFor(c), { timeout: connectTimeoutMs });
        c.client = client;
        c.tools = await listAllTools(client);
        c.validators.clear();
        c.state = "running";
        c.lastError = null;
        c.retryAt = null;
        c.startedAt = Date.now();
        emit(c);
      } catch (e) {
        c.client = null;
        await client.close().catch(() => {});
        fail(c, `could not start: ${messageOf(e)}`, { restart: false });
      }
    })().finally(() => {
      c.connecting = null;
    });
    return c.connecting;
  }

  async function connectionFor(config: McpServerConfig): Promise<Connection> {
    const fingerprint = fingerprintOf(config);
    let c = connections.get(config.id);
    if (c && c.fingerprint !== fingerprint) {
      await stop(config.id);
      c = undefined;
    }
    if (!c) {
      c = {
        config,
        fingerprint,
        client: null,
        state: "stopped",
        lastError: null,
        tools: [],
        validators: new Map(),
        failures: 0,
        startedAt: 0,
        retryAt: null,
        retryTimer: null,
        connecting: null,
        stderr: "",
      };
      connections.set(config.id, c);
    }
    c.config = config;
    return c;
  }

  async function ready(config: McpServerConfig): Promise<{ c: Connection; reason: string | null }> {
    const c = await connectionFor(config);
    if (!config.enabled) return { c, reason: "the server is disabled" };
    if (c.connecting) await c.connecting;
    else if (
      c.state === "stopped" ||
      (c.state === "failed" && !c.retryTimer && (c.retryAt ?? 0) <= Date.now())
    ) {
      await start(c);
    }
    if (c.state === "running") return { c, reason: null };
    const retry = c.retryAt
      ? `; next attempt in ${Math.max(0, Math.ceil((c.retryAt - Date.now()) / 1000))} s`
      : "";
    return { c, reason: `${c.lastError ?? "not running"}${retry}` };
  }

  async function stop(serverId: string) {
    const c = connections.get(serverId);
    if (!c) return;
    connections.delete(serverId);
    clearRetry(c);
    if (c.connecting) await c.connecting.catch(() => {});
    c.state = "stopped";
    await closeClient(c);
    emit(c);
  }

  function validatorFor(c: Connection, tool: Tool): JsonSchemaValidator<unknown> {
    let v = c.validators.get(tool.name);
    if (!v) {
      v = validatorFactory.getValidator(tool.inputSchema as JsonSchemaType);
      c.validators.set(tool.name, v);
    }
    return v;
  }

  const notRun = (text: string): CallOutcome => ({ ok: false, text, executed: false });

  return {
    events,
    status: (id) => statusOf(connections.get(id)),
    stop,
    stopAll: async () => {
      await Promise.all([...connections.keys()].map(stop));
    },
    toolsOf: async (config) => {
      try {
        const { c, reason } = await ready(config);
        return reason === null ? { ok: true, tools: c.tools } : { ok: false, reason };
      } catch (e) {
        return { ok: false, reason: messageOf(e) };
      }
    },
    call: async (config, name, args, { signal }) => {
      if (signal?.aborted) return notRun("The turn was stopped; the tool was not called.");
      const { c, reason } = await ready(config).catch((e: unknown) => ({ c: null, reason: messageOf(e) }));
      if (reason !== null || !c?.client)
        return notRun(`The ${config.name} server is not available: ${reason}`);
      const tool = c.tools.find((t) => t.name === name);
      if (!tool) return notRun(`The ${config.name} server has no tool named ${name}.`);
      const checked = validatorFor(c, tool)(args);
      if (!checked.valid) return notRun(`Invalid arguments: ${checked.errorMessage}`);
      if (signal?.aborted) return notRun("The turn was stopped; the tool was not called.");
      const limit = config.maxResultChars;
      try {
        const result = await c.client.callTool(
          { name, arguments: args as Record<string, unknown> },
          undefined,
          {
            signal,
            timeout: config.timeoutMs,
          },
        );
        return { ok: result.isError !== true, text: truncate(resultText(result), limit), executed: true };
      } catch (e) {
        if (signal?.aborted)
          return { ok: false, text: "The turn was stopped during the call.", executed: true };
        if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) {
          return {
            ok: false,
            text: `The tool did not answer within ${config.timeoutMs} ms.`,
            executed: true,
          };
        }
        if (!(e instanceof McpError) && c.state === "running") {
          // The transport broke (an HTTP server went away): treat it like a crash.
          fail(c, messageOf(e), { restart: true });
          await closeClient(c);
        }
        return { ok: false, text: truncate(`The tool failed: ${messageOf(e)}`, limit), executed: true };
      }
    },
  };
}
