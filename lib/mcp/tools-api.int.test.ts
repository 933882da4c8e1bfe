import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as adminTool from "@/app/api/admin/tools/[id]/route";
import * as adminTools from "@/app/api/admin/tools/route";
import * as sessionTools from "@/app/api/sessions/[id]/tools/route";
import { sessionClaims } from "@/lib/auth/session-token";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { callMcpTool, mcpManager, mcpToolsFor } from "@/lib/mcp";
import { invalidateServerConfigs } from "@/lib/mcp/servers";
import { testServerCommand } from "./test-server";

// The admin API for MCP servers, the per-conversation switches and the turn's two entry points, against the real
// test server, on SQLite and PostgreSQL. One MCP_SERVERS server (read-only) is configured for this file.

vi.hoisted(() => {
  process.env.MCP_SERVERS = JSON.stringify([
    {
      name: "deployed",
      transport: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", `${process.cwd()}/scripts/mcp-test-server.ts`],
      env: { MCP_TEST_GREETING: "from the deployment" },
    },
  ]);
});
vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
vi.mock("@/lib/security/csrf", () => ({ assertSameOrigin: () => {} }));

const kind = databaseKind(env.DATABASE_URL);
const base = "http://localhost/api";
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });
const signedIn = (id: string | null) =>
  vi.mocked(sessionClaims).mockResolvedValue(id ? { uid: id, ver: 0, sid: null } : null);
const json = (method: string, body: unknown) => ({ method, body: JSON.stringify(body) });

// Servers are global configuration: each test starts with none of the admin's (only this file makes them).
beforeEach(async () => {
  await db.mcpServer.deleteMany({});
  invalidateServerConfigs();
});

afterAll(async () => {
  await mcpManager.stopAll();
  await db.mcpServer.deleteMany({});
  await db.$disconnect();
});

async function createUser(role: "USER" | "ADMIN" = "USER") {
  return db.user.create({
    data: { email: `u-${randomUUID()}@example.test`, name: "T", passwordHash: "x", role },
  });
}

async function createServerAsAdmin(adminId: string, body: Record<string, unknown>) {
  signedIn(adminId);
  const res = await adminTools.POST(new Request(`${base}/admin/tools`, json("POST", body)), ctx({}));
  return {
    status: res.status,
    body: (await res.json()) as { server: Record<string, unknown> & { id: string } },
  };
}

describe(`admin tools API (${kind})`, () => {
  it("creates, lists with secrets masked, reads, updates and deletes a server, with audit entries", async () => {
    const admin = await createUser("ADMIN");
    const name = `t${randomUUID().slice(0, 8)}`;
    const created = await createServerAsAdmin(admin.id, {
      name,
      transport: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { Authorization: "Bearer sk-secret-value-12345678" },
      enabled: true,
      timeoutMs: 5000,
      maxResultChars: 4000,
    });
    expect(created.status).toBe(201);
    const id = created.body.server.id;
    expect(created.body.server).toMatchObject({
      name,
      transport: "http",
      headers: { Authorization: "••••5678" },
      readOnly: false,
      status: { state: "stopped", lastError: null, toolNames: [] },
    });

    // At rest: sealed, never the plain value.
    const row = await db.mcpServer.findUniqueOrThrow({ where: { id } });
    expect(row.headersSealed).not.toContain("sk-secret");
    const listed = await (await adminTools.GET(new Request(`${base}/admin/tools`), ctx({}))).json();
    expect(JSON.stringify(listed)).not.toContain("sk-secret");
    const servers = (listed as { servers: { id: string; readOnly: boolean; name: string }[] }).servers;
    expect(servers.find((s) => s.id === id)).toBeDefined();
    expect(servers.find((s) => s.name === "deployed")).toMatchObject({
      id: "env:deployed",
      readOnly: true,
      env: { MCP_TEST_GREETING: "••••ment" },
    });

    // The masked value sent back keeps the secret; other fields change.
    const patched = await adminTool.PATCH(
      new Request(
        `${base}/admin/tools/${id}`,
        json("PATCH", { enabled: false, headers: { Authorization: "••••5678", "X-Extra": "plain" } }),
      ),
      ctx({ id }),
    );
    expect(patched.status).toBe(200);
    const { server: afterPatch } = (await patched.json()) as { server: Record<string, unknown> };
    expect(afterPatch).toMatchObject({
      enabled: false,
      headers: { Authorization: "••••5678", "X-Extra": "••••" },
    });
    const { getServerConfig } = await import("./servers");
    expect((await getServerConfig(id))?.headers).toEqual({
      Authorization: "Bearer sk-secret-value-12345678",
      "X-Extra": "plain",
    });

    const read = await adminTool.GET(new Request(`${base}/admin/tools/${id}`), ctx({ id }));
    expect(((await read.json()) as { server: { enabled: boolean } }).server.enabled).toBe(false);

    const deleted = await adminTool.DELETE(
      new Request(`${base}/admin/tools/${id}`, { method: "DELETE" }),
      ctx({ id }),
    );
    expect(deleted.status).toBe(204);
    expect(await db.mcpServer.count({ where: { id } })).toBe(0);
    expect((await adminTool.GET(new Request(`${base}/admin/tools/${id}`), ctx({ id }))).status).toBe(404);

    const audit = await db.auditLog.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual([
      "mcp_server.create",
      "mcp_server.update",
      "mcp_server.delete",
    ]);
    expect(JSON.stringify(audit)).not.toContain("sk-secret");
    expect(audit[1]?.details).toEqual({ fields: ["enabled", "headers"] });
  });

  it("answers 422 naming the fields, 409 for a taken name, and keeps MCP_SERVERS servers read-only", async () => {
    const admin = await createUser("ADMIN");
    const bad = await createServerAsAdmin(admin.id, { name: "Bad Name", transport: "stdio", timeoutMs: 5 });
    expect(bad.status).toBe(422);
    const paths = (bad.body as unknown as { error: { details: { path: string }[] } }).error.details.map(
      (d) => d.path,
    );
    expect(paths).toEqual(expect.arrayContaining(["name", "timeoutMs", "command"]));
    const noUrl = await createServerAsAdmin(admin.id, { name: "x", transport: "http" });
    expect(noUrl.status).toBe(422);
    expect(JSON.stringify(noUrl.body)).toContain('"path":"url"');

    const name = `t${randomUUID().slice(0, 8)}`;
    expect((await createServerAsAdmin(admin.id, { name, transport: "stdio", command: "true" })).status).toBe(
      201,
    );
    expect((await createServerAsAdmin(admin.id, { name, transport: "stdio", command: "true" })).status).toBe(
      409,
    );
    expect(
      (await createServerAsAdmin(admin.id, { name: "deployed", transport: "stdio", command: "true" })).status,
    ).toBe(409);

    const id = "env:deployed";
    const patch = await adminTool.PATCH(
      new Request(`${base}/admin/tools/${id}`, json("PATCH", { enabled: false })),
      ctx({ id }),
    );
    expect(patch.status).toBe(409);
    expect(
      (await adminTool.DELETE(new Request(`${base}/admin/tools/${id}`, { method: "DELETE" }), ctx({ id })))
        .status,
    ).toBe(409);
  });

  it("is for admins only", async () => {
    const user = await createUser();
    signedIn(user.id);
    expect((await adminTools.GET(new Request(`${base}/admin/tools`), ctx({}))).status).toBe(403);
    const post = await adminTools.POST(
      new Request(`${base}/admin/tools`, json("POST", { name: "nope", transport: "stdio", command: "true" })),
      ctx({}),
    );
    expect(post.status).toBe(403);
    expect(await db.mcpServer.count({ where: { name: "nope" } })).toBe(0);
    signedIn(null);
    expect((await adminTools.GET(new Request(`${base}/admin/tools`), ctx({}))).status).toBe(401);
  });
});

describe(`MCP tools in a conversation (${kind})`, () => {
  it("switches servers per conversation for its owner only, and offers the switched-on servers' tools", async () => {
    const admin = await createUser("ADMIN");
    const owner = await createUser();
    const other = await createUser();
    const name = `s${randomUUID().slice(0, 8)}`;
    const created = await createServerAsAdmin(admin.id, {
      name,
      transport: "stdio",
      ...testServerCommand,
      maxResultChars: 500,
    });
    const serverId = created.body.server.id;
    const session = await db.chatSession.create({ data: { userId: owner.id, title: "t" } });
    const url = `${base}/sessions/${session.id}/tools`;

    signedIn(owner.id);
    const initial = (await (await sessionTools.GET(new Request(url), ctx({ id: session.id }))).json()) as {
      servers: Record<string, boolean>;
    };
    expect(initial.servers).toMatchObject({ [serverId]: true, "env:deployed": true });

    const offered = await mcpToolsFor({ sessionId: session.id, userId: owner.id });
    expect(offered.unavailable).toEqual([]);
    const names = offered.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([`${name}__echo`, `${name}__slow`, "deployed__whoami"]));
    expect(offered.tools.find((t) => t.name === `${name}__slow`)?.parameters).toMatchObject({
      type: "object",
      properties: { ms: { type: "integer" } },
    });

    const echoed = await callMcpTool({ name: `${name}__echo`, arguments: '{"text":"hi"}' });
    expect(echoed).toEqual({ ok: true, text: JSON.stringify({ output: "hi" }), executed: true });
    const who = await callMcpTool({ name: "deployed__whoami", arguments: "{}" });
    expect(JSON.parse(JSON.parse(who.text).output)).toMatchObject({ greeting: "from the deployment" });
    const large = await callMcpTool({ name: `${name}__large`, arguments: '{"chars":2000}' });
    expect(JSON.parse(large.text).output).toContain(
      "[truncated: the result had 2000 characters; the first 500 are shown]",
    );
    const bad = await callMcpTool({ name: `${name}__slow`, arguments: '{"ms":"x"}' });
    expect(bad).toMatchObject({ ok: false, executed: false });
    const stopped = new AbortController();
    stopped.abort();
    expect(
      await callMcpTool({ name: `${name}__echo`, arguments: "{}", signal: stopped.signal }),
    ).toMatchObject({
      ok: false,
      executed: false,
    });

    // Another user: 404 both ways, nothing changed.
    signedIn(other.id);
    expect((await sessionTools.GET(new Request(url), ctx({ id: session.id }))).status).toBe(404);
    const foreign = await sessionTools.PATCH(
      new Request(url, json("PATCH", { servers: { [serverId]: false } })),
      ctx({ id: session.id }),
    );
    expect(foreign.status).toBe(404);

    signedIn(owner.id);
    const off = await sessionTools.PATCH(
      new Request(url, json("PATCH", { servers: { [serverId]: false } })),
      ctx({ id: session.id }),
    );
    expect(off.status).toBe(200);
    expect(((await off.json()) as { servers: Record<string, boolean> }).servers).toMatchObject({
      [serverId]: false,
      "env:deployed": true,
    });
    const unknown = await sessionTools.PATCH(
      new Request(url, json("PATCH", { servers: { nope: true } })),
      ctx({ id: session.id }),
    );
    expect(unknown.status).toBe(422);

    const after = await mcpToolsFor({ sessionId: session.id, userId: owner.id });
    expect(after.tools.some((t) => t.name.startsWith(`${name}__`))).toBe(false);
    expect(after.tools.some((t) => t.name === "deployed__echo")).toBe(true);
    // Another conversation of the same user still has it.
    const second = await db.chatSession.create({ data: { userId: owner.id, title: "t2" } });
    expect(
      (await mcpToolsFor({ sessionId: second.id, userId: owner.id })).tools.some(
        (t) => t.name === `${name}__echo`,
      ),
    ).toBe(true);

    // The switch dies with the conversation.
    await db.chatSession.delete({ where: { id: session.id } });
  });

  it("lists a server that cannot start as unavailable with its reason, without throwing", async () => {
    const admin = await createUser("ADMIN");
    const owner = await createUser();
    const name = `b${randomUUID().slice(0, 8)}`;
    await createServerAsAdmin(admin.id, {
      name,
      transport: "http",
      url: "http://127.0.0.1:9/mcp",
      timeoutMs: 1000,
    });
    const session = await db.chatSession.create({ data: { userId: owner.id, title: "t" } });
    const { expectConsoleWarn } = await import("@/test/console");
    expectConsoleWarn(new RegExp(`\\[mcp\\] server ${name} failed: could not start`));
    const offered = await mcpToolsFor({ sessionId: session.id, userId: owner.id });
    expect(offered.unavailable).toEqual([
      { serverId: expect.any(String), server: name, reason: expect.stringMatching(/could not start/) },
    ]);
    expect(offered.tools.some((t) => t.name === "deployed__echo")).toBe(true);
    const call = await callMcpTool({ name: `${name}__echo`, arguments: "{}" });
    expect(call).toMatchObject({ ok: false, executed: false });
  });
});
