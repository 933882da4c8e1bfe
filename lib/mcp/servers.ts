import "server-only";
import {
  createMcpServer,
  deleteMcpServer,
  getMcpServerById,
  listMcpServers,
  type McpServerData,
  type McpServerRow,
  updateMcpServer,
} from "@/lib/db/mcp-servers";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { maskSecret, openSecret, sealSecret } from "@/lib/security/secret-box";
import {
  configFromInput,
  envServerId,
  type McpServerConfig,
  type ServerInput,
  type ServerPatch,
  serverInput,
} from "./config";

// Where servers come from: the admin's (database, secrets sealed) and the deployment's MCP_SERVERS (read-only).
// Secrets are opened only here, for the manager; what an admin reads has them masked.

const box = () => ({ secret: env.AUTH_SECRET, purpose: "mcp-servers" });

const seal = (m: Record<string, string> | undefined) =>
  m && Object.keys(m).length > 0 ? sealSecret(JSON.stringify(m), box()) : null;

function open(sealed: string | null, { id, what }: { id: string; what: string }): Record<string, string> {
  if (!sealed) return {};
  try {
    return JSON.parse(openSecret(sealed, box())) as Record<string, string>;
  } catch (e) {
    // AUTH_SECRET changed since it was sealed: the server starts without them and fails visibly.
    console.warn(
      `[mcp] the ${what} of server ${id} cannot be opened (was AUTH_SECRET changed?): ${String(e)}`,
    );
    return {};
  }
}

const argsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((a): a is string => typeof a === "string") : [];

function configOfRow(row: McpServerRow): McpServerConfig {
  return {
    id: row.id,
    name: row.name,
    transport: row.transport === "http" ? "http" : "stdio",
    command: row.command,
    args: argsOf(row.args),
    env: open(row.envSealed, { id: row.id, what: "environment" }),
    url: row.url,
    headers: open(row.headersSealed, { id: row.id, what: "headers" }),
    enabled: row.enabled,
    timeoutMs: row.timeoutMs,
    maxResultChars: row.maxResultChars,
    readOnly: false,
  };
}

const envConfigs = (): McpServerConfig[] =>
  env.MCP_SERVERS.map((s) => configFromInput(s, { id: envServerId(s.name), readOnly: true }));

async function loadServerConfigs(): Promise<McpServerConfig[]> {
  const fromEnv = envConfigs();
  const taken = new Set(fromEnv.map((s) => s.name));
  // A database server shadowed by an MCP_SERVERS one of the same name is left out: names must route uniquely.
  const fromDb = (await listMcpServers()).map(configOfRow).filter((s) => !taken.has(s.name));
  return [...fromEnv, ...fromDb];
}

// Every turn asks for the servers: kept in this process, dropped by every write made here, and re-read after
// CONFIG_TTL_MS so that another instance's writes arrive within that time.
export const CONFIG_TTL_MS = 5_000;
let cached: { at: number; configs: Promise<readonly McpServerConfig[]> } | null = null;

/** Forgets the cached servers (after a write to McpServer that did not go through this module, e.g. in tests). */
export function invalidateServerConfigs() {
  cached = null;
}

/** Every configured server, the deployment's first, secrets in the clear (server-side only). */
export function listServerConfigs(): Promise<readonly McpServerConfig[]> {
  const now = Date.now();
  if (cached && now - cached.at < CONFIG_TTL_MS) return cached.configs;
  const configs = loadServerConfigs();
  const entry = { at: now, configs };
  cached = entry;
  // A failed read is not kept.
  configs.catch(() => {
    if (cached === entry) cached = null;
  });
  return configs;
}

export async function getServerConfig(id: string): Promise<McpServerConfig | null> {
  const fromEnv = envConfigs().find((s) => s.id === id);
  if (fromEnv) return fromEnv;
  const row = await getMcpServerById({ id });
  return row ? configOfRow(row) : null;
}

/** A server as admins see it: the same fields, secrets masked. */
export type McpServerView = McpServerConfig;

const masked = (m: Record<string, string>) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, maskSecret(v)]));

export function viewOf(c: McpServerConfig): McpServerView {
  const { env: e, headers, ...rest } = c;
  return { ...rest, env: masked(e), headers: masked(headers) };
}

function dataOf(s: ServerInput): McpServerData {
  return {
    name: s.name,
    transport: s.transport,
    command: s.transport === "stdio" ? (s.command ?? null) : null,
    args: s.transport === "stdio" ? (s.args ?? []) : [],
    envSealed: s.transport === "stdio" ? seal(s.env) : null,
    url: s.transport === "http" ? (s.url ?? null) : null,
    headersSealed: s.transport === "http" ? seal(s.headers) : null,
    enabled: s.enabled,
    timeoutMs: s.timeoutMs,
    maxResultChars: s.maxResultChars,
  };
}

function assertNameFree(name: string) {
  if (env.MCP_SERVERS.some((s) => s.name === name)) {
    throw new AppError("conflict", `A tool server named ${name} is configured by MCP_SERVERS.`, {
      details: [{ path: "name", message: "name is taken" }],
    });
  }
}

/** Runs a write to McpServer, then drops this process's cached servers, whatever the write's outcome. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    invalidateServerConfigs();
  }
}

export async function createServer({ actorId, input }: { actorId: string; input: ServerInput }) {
  assertNameFree(input.name);
  return configOfRow(await writing(() => createMcpServer({ actorId, data: dataOf(input) })));
}

/** A masked value sent back unchanged (as the admin read it) keeps the stored secret. */
function mergeSecrets(next: Record<string, string> | undefined, prev: Record<string, string>) {
  if (!next) return prev;
  return Object.fromEntries(
    Object.entries(next).map(([k, v]) => [
      k,
      prev[k] !== undefined && v === maskSecret(prev[k]) ? prev[k] : v,
    ]),
  );
}

function editable(current: McpServerConfig | null): McpServerConfig {
  if (!current) throw new AppError("not_found", "There is no such tool server.");
  if (current.readOnly) {
    throw new AppError("conflict", "This server is configured by MCP_SERVERS; change it in the deployment.");
  }
  return current;
}

export async function updateServer({
  actorId,
  id,
  patch,
}: {
  actorId: string;
  id: string;
  patch: ServerPatch;
}) {
  const current = editable(await getServerConfig(id));
  const merged = serverInput.parse({
    name: patch.name ?? current.name,
    transport: patch.transport ?? current.transport,
    ...(current.command !== null ? { command: current.command } : {}),
    ...(current.url !== null ? { url: current.url } : {}),
    args: current.args,
    enabled: current.enabled,
    timeoutMs: current.timeoutMs,
    maxResultChars: current.maxResultChars,
    ...patch,
    env: mergeSecrets(patch.env, current.env),
    headers: mergeSecrets(patch.headers, current.headers),
  });
  if (merged.name !== current.name) assertNameFree(merged.name);
  return configOfRow(
    await writing(() =>
      updateMcpServer({ actorId, id, data: dataOf(merged), fields: Object.keys(patch).sort() }),
    ),
  );
}

export async function deleteServer({ actorId, id }: { actorId: string; id: string }) {
  editable(await getServerConfig(id));
  await writing(() => deleteMcpServer({ actorId, id }));
}
