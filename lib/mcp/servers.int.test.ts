import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { databaseKind, db } from "@/lib/db/client";
import { listMcpServers } from "@/lib/db/mcp-servers";
import { env } from "@/lib/env";
import {
  CONFIG_TTL_MS,
  createServer,
  deleteServer,
  invalidateServerConfigs,
  listServerConfigs,
  updateServer,
} from "./servers";

// The servers every turn asks for are read once per CONFIG_TTL_MS, and every write made in this process drops
// them at once; counted at the data-access function, against the real database of this run.

vi.mock("@/lib/db/mcp-servers", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/db/mcp-servers")>();
  return { ...real, listMcpServers: vi.fn(real.listMcpServers) };
});

const kind = databaseKind(env.DATABASE_URL);
const reads = () => vi.mocked(listMcpServers).mock.calls.length;
const names = async () => (await listServerConfigs()).map((s) => s.name);

beforeEach(async () => {
  await db.mcpServer.deleteMany({});
  invalidateServerConfigs();
  vi.mocked(listMcpServers).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await db.mcpServer.deleteMany({});
  await db.$disconnect();
});

async function admin() {
  return db.user.create({
    data: { email: `a-${randomUUID()}@example.test`, name: "A", passwordHash: "x", role: "ADMIN" },
  });
}

const input = (name: string) => ({
  name,
  transport: "stdio" as const,
  command: "true",
  args: [],
  enabled: true,
  timeoutMs: 5000,
  maxResultChars: 4000,
});

describe(`MCP server configs cache (${kind})`, () => {
  it("reads once for repeated calls, also with no server configured", async () => {
    expect(await listServerConfigs()).toEqual([]);
    expect(await listServerConfigs()).toEqual([]);
    await Promise.all([listServerConfigs(), listServerConfigs()]);
    expect(reads()).toBe(1);
  });

  it("reads again after a create, an update and a delete in this process", async () => {
    const { id: actorId } = await admin();
    const name = `c${randomUUID().slice(0, 8)}`;
    expect(await names()).toEqual([]);

    const created = await createServer({ actorId, input: input(name) });
    expect(await names()).toEqual([name]);
    expect(reads()).toBe(2);

    await updateServer({ actorId, id: created.id, patch: { enabled: false } });
    expect((await listServerConfigs()).map((s) => s.enabled)).toEqual([false]);
    expect(reads()).toBe(3);

    await deleteServer({ actorId, id: created.id });
    expect(await names()).toEqual([]);
    expect(await names()).toEqual([]);
    expect(reads()).toBe(4);
  });

  it("picks up another instance's write after the TTL, not before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    expect(await names()).toEqual([]);
    // Another instance's write: straight to the database, nothing in this process is told.
    const name = `o${randomUUID().slice(0, 8)}`;
    await db.mcpServer.create({ data: { ...input(name), args: [] } });

    vi.advanceTimersByTime(CONFIG_TTL_MS - 100);
    expect(await names()).toEqual([]);
    expect(reads()).toBe(1);

    vi.advanceTimersByTime(200);
    expect(await names()).toEqual([name]);
    expect(reads()).toBe(2);
  });

  it("does not keep a failed read", async () => {
    vi.mocked(listMcpServers).mockRejectedValueOnce(new Error("database away"));
    await expect(listServerConfigs()).rejects.toThrow("database away");
    expect(await listServerConfigs()).toEqual([]);
    expect(reads()).toBe(2);
  });
});
