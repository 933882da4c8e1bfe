import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type z, z as zod } from "zod";
import { updateUserSchema } from "@/lib/admin/schemas";
import { chatCompletionRequestSchema } from "@/lib/api/chat-request";
import { userInstructionsSchema } from "@/lib/api/instruction-schemas";
import { updateFactSchema, userSettingsSchema } from "@/lib/api/memory-schemas";
import { createProjectSchema, updateProjectSchema } from "@/lib/api/project-schemas";
import { createApiKeySchema } from "@/lib/api/schemas";
import { deleteAccountSchema, passwordChangeSchema, profileSchema, registerSchema } from "@/lib/auth/schemas";
import { sessionClaims } from "@/lib/auth/session-token";
import { createSessionSchema, turnInputSchema, updateSessionSchema } from "@/lib/chat/schemas";
import { createApiKey } from "@/lib/db/api-keys";
import { databaseKind, db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { serverInput, serverPatch } from "@/lib/mcp/config";
import { sessionToolsPatch } from "@/lib/mcp/session-tools";
import { validateMemorySettings } from "@/lib/memory";
import { modelInput, modelPatch } from "@/lib/models/config";
import { findUnstorable } from "./text";

// Every route handler driven in-process with random and hostile input, on the database of this run (SQLite or
// PostgreSQL): path parameters, query strings and bodies from fast-check, built around each route's own schema.
// Every answer must be a 4xx JSON error with a code — never a 5xx, never a stack trace — and the stored data must be
// exactly as before. Bodies a schema would accept are discarded (they would legitimately change something), except
// those the boundary refuses anyway (a NUL, absurd nesting). Bounded: a fixed number of runs per route and seed.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));
// Sign-in rate limits and the like are not under test here; their 429s would still be valid answers.
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined }),
  headers: async () => new Headers({ "accept-language": "en" }),
}));

const kind = databaseKind(env.DATABASE_URL);
const ORIGIN = "http://127.0.0.1";
/** Runs per route: 31 routes × this stays well under a minute per database on two cores. */
const RUNS = 40;
const SEED = 2_026_12_01;

afterAll(async () => {
  await db.$disconnect();
});

type Who = "user" | "admin" | "public" | "v1";
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Target {
  name: string;
  method: string;
  who: Who;
  handler: Handler;
  /** The path with its parameters filled in. */
  path: (p: Record<string, string>) => string;
  params: string[];
  /** Bodies to send (undefined: no body). */
  body?: fc.Arbitrary<unknown>;
  /** Whether a generated body would be a legitimate change (then it is not sent). */
  accepts?: (body: unknown) => boolean;
}

// ---- values -----------------------------------------------------------------------------------------------------

const NASTY = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%00",
  "%E0%A4%A",
  "..",
  ".",
  "../../etc/passwd",
  "\ud800",
  "\udfff\ud800",
  "\u202egpj.exe",
  '\'; DROP TABLE "User"; --',
  '" OR 1=1 --',
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "null",
  "NaN",
  "-1",
  "0",
  "9".repeat(400),
  "x".repeat(501),
  "é".repeat(3030),
  "𝕏".repeat(201),
  "\r\n\r\nHTTP/1.1 200 OK",
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 480, maxLength: 3100, unit: "grapheme-ascii" }) },
);

const deep = (depth: number): unknown => {
  let v: unknown = "bottom";
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
  return v;
};

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt().map(String)),
  },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 20 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(deep(200), deep(65), [[[[[]]]]], {}, []) },
);

/** An object with some of `fields` (hostile values) and maybe an unknown key, or whole-body garbage. */
const bodyOf = (fields: string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record(Object.fromEntries(fields.map((f) => [f, hostileValue])), { requiredKeys: [] })
        .chain((r) =>
          fc
            .option(fc.tuple(hostileString, hostileValue), { freq: 4 })
            .map((extra) => (extra ? { ...r, [extra[0]]: extra[1] } : r)),
        ),
    },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constant(RAW(`${"[".repeat(50_000)}${"]".repeat(50_000)}`)) },
    { weight: 1, arbitrary: fc.constant(RAW("{not json")) },
    { weight: 1, arbitrary: fc.constant(RAW("")) },
    { weight: 1, arbitrary: fc.constant(RAW("\u0000")) },
  );

/** A body sent as these exact characters instead of JSON. */
class Raw {
  constructor(readonly text: string) {}
}
const RAW = (text: string) => new Raw(text);

const refusedBy =
  (schema: z.ZodType) =>
  (body: unknown): boolean =>
    body instanceof Raw || findUnstorable(body) !== null || !schema.safeParse(body).success;

// ---- the world --------------------------------------------------------------------------------------------------

interface World {
  user: { id: string };
  admin: { id: string };
  other: { id: string };
  sessionId: string;
  messageId: string;
  factId: string;
  keyId: string;
  apiKey: string;
  otherSessionId: string;
}

let world: World;

async function makeWorld(): Promise<World> {
  const mk = (role: "USER" | "ADMIN") =>
    db.user.create({
      data: { email: `fuzz-${randomUUID()}@example.test`, name: "Fuzz", passwordHash: "x", role },
    });
  const [user, admin, other] = [await mk("USER"), await mk("ADMIN"), await mk("USER")];
  const session = await db.chatSession.create({ data: { userId: user.id, title: "Fuzzed", lastSeq: 2 } });
  const q = await db.chatMessage.create({
    data: { sessionId: session.id, seq: 1, role: "user", text: "My colour is teal." },
  });
  const a = await db.chatMessage.create({
    data: { sessionId: session.id, seq: 2, role: "assistant", text: "Noted.", parentId: q.id },
  });
  await db.chatSession.update({ where: { id: session.id }, data: { activeLeafId: a.id, activeLeafSeq: 2 } });
  const fact = await db.memoryFact.create({
    data: { userId: user.id, text: "My colour is teal", sourceSessionId: session.id, sourceMessageId: q.id },
  });
  const key = await createApiKey({ userId: user.id, name: "fuzz" });
  const otherSession = await db.chatSession.create({ data: { userId: other.id, title: "Not yours" } });
  return {
    user,
    admin,
    other,
    sessionId: session.id,
    messageId: q.id,
    factId: fact.id,
    keyId: key.id,
    apiKey: key.key,
    otherSessionId: otherSession.id,
  };
}

/** Everything a request could change, without the columns a read may touch (last use, timestamps of reads). */
async function snapshot() {
  const [users, sessions, messages, facts, keys, attachments, invites, snapshots, contexts, shares] =
    await Promise.all([
      db.user.findMany({
        orderBy: { id: "asc" },
        select: {
          id: true,
          email: true,
          name: true,
          role: true,
          disabledAt: true,
          longTermMemory: true,
          passwordHash: true,
          mustChangePassword: true,
          aboutMe: true,
          howToAnswer: true,
        },
      }),
      db.chatSession.findMany({
        orderBy: { id: "asc" },
        select: {
          id: true,
          title: true,
          activeLeafId: true,
          lastSeq: true,
          memorySettings: true,
          memoryStartSeq: true,
          updatedAt: true,
          systemPrompt: true,
          temporary: true,
        },
      }),
      db.chatMessage.findMany({ orderBy: { id: "asc" }, select: { id: true, text: true, status: true } }),
      db.memoryFact.findMany({
        orderBy: { id: "asc" },
        select: { id: true, text: true, supersededById: true },
      }),
      db.apiKey.findMany({ orderBy: { id: "asc" }, select: { id: true, name: true, revokedAt: true } }),
      db.attachment.count(),
      db.inviteCode.count(),
      db.memorySnapshot.count(),
      db.turnContext.count(),
      db.share.count(),
    ]);
  return { users, sessions, messages, facts, keys, attachments, invites, snapshots, contexts, shares };
}

// ---- the routes -------------------------------------------------------------------------------------------------

const load = async (path: string) => (await import(path)) as Record<string, Handler>;

async function targets(): Promise<Target[]> {
  const r = {
    auditLog: await load("@/app/api/admin/audit/route"),
    invites: await load("@/app/api/admin/invites/route"),
    overview: await load("@/app/api/admin/overview/route"),
    adminSession: await load("@/app/api/admin/sessions/[id]/route"),
    adminContext: await load("@/app/api/admin/sessions/[id]/turns/[messageId]/context/route"),
    adminSessions: await load("@/app/api/admin/sessions/route"),
    adminKeys: await load("@/app/api/admin/users/[id]/keys/route"),
    adminMemories: await load("@/app/api/admin/users/[id]/memories/route"),
    adminUser: await load("@/app/api/admin/users/[id]/route"),
    adminUsers: await load("@/app/api/admin/users/route"),
    adminTools: await load("@/app/api/admin/tools/route"),
    adminTool: await load("@/app/api/admin/tools/[id]/route"),
    adminModels: await load("@/app/api/admin/models/route"),
    adminModel: await load("@/app/api/admin/models/[id]/route"),
    apiModels: await load("@/app/api/models/route"),
    password: await load("@/app/api/me/password/route"),
    me: await load("@/app/api/me/route"),
    meUsage: await load("@/app/api/me/usage/route"),
    passwordReset: await load("@/app/api/admin/users/[id]/password-reset/route"),
    sessionTools: await load("@/app/api/sessions/[id]/tools/route"),
    attachment: await load("@/app/api/attachments/[id]/route"),
    attachments: await load("@/app/api/attachments/route"),
    health: await load("@/app/api/health/route"),
    importRoute: await load("@/app/api/import/route"),
    key: await load("@/app/api/keys/[id]/route"),
    keys: await load("@/app/api/keys/route"),
    meExport: await load("@/app/api/me/export/route"),
    settings: await load("@/app/api/me/settings/route"),
    instructions: await load("@/app/api/me/instructions/route"),
    memory: await load("@/app/api/memories/[id]/route"),
    memories: await load("@/app/api/memories/route"),
    projects: await load("@/app/api/projects/route"),
    project: await load("@/app/api/projects/[id]/route"),
    projectFiles: await load("@/app/api/projects/[id]/files/route"),
    projectFile: await load("@/app/api/projects/[id]/files/[fileId]/route"),
    register: await load("@/app/api/register/route"),
    search: await load("@/app/api/search/route"),
    sessionExport: await load("@/app/api/sessions/[id]/export/route"),
    memoryClear: await load("@/app/api/sessions/[id]/memory/clear/route"),
    sessionMemory: await load("@/app/api/sessions/[id]/memory/route"),
    messages: await load("@/app/api/sessions/[id]/messages/route"),
    session: await load("@/app/api/sessions/[id]/route"),
    context: await load("@/app/api/sessions/[id]/turns/[messageId]/context/route"),
    answerStop: await load("@/app/api/sessions/[id]/messages/[messageId]/stop/route"),
    answerStream: await load("@/app/api/sessions/[id]/messages/[messageId]/stream/route"),
    sessions: await load("@/app/api/sessions/route"),
    sessionShare: await load("@/app/api/sessions/[id]/share/route"),
    shares: await load("@/app/api/shares/route"),
    share: await load("@/app/api/shares/[id]/route"),
    completions: await load("@/app/v1/chat/completions/route"),
    models: await load("@/app/v1/models/route"),
  };
  const h = (mod: Record<string, Handler>, method: string) => mod[method] as Handler;
  const memoryRefused = (body: unknown) =>
    body instanceof Raw || findUnstorable(body) !== null || !validateMemorySettings(body).ok;
  const t = (x: Omit<Target, "params"> & { params?: string[] }): Target => ({ params: [], ...x });
  return [
    // Reads and deletes: hostile ids and queries. Real ids of someone else are among the ids (see idOf).
    t({
      name: "GET admin audit",
      method: "GET",
      who: "admin",
      handler: h(r.auditLog, "GET"),
      path: () => "/api/admin/audit",
    }),
    t({
      name: "GET admin invites",
      method: "GET",
      who: "admin",
      handler: h(r.invites, "GET"),
      path: () => "/api/admin/invites",
    }),
    t({
      name: "GET admin overview",
      method: "GET",
      who: "admin",
      handler: h(r.overview, "GET"),
      path: () => "/api/admin/overview",
    }),
    t({
      name: "GET admin sessions",
      method: "GET",
      who: "admin",
      handler: h(r.adminSessions, "GET"),
      path: () => "/api/admin/sessions",
    }),
    t({
      name: "GET admin users",
      method: "GET",
      who: "admin",
      handler: h(r.adminUsers, "GET"),
      path: () => "/api/admin/users",
    }),
    t({
      name: "GET admin session",
      method: "GET",
      who: "admin",
      params: ["id"],
      handler: h(r.adminSession, "GET"),
      path: (p) => `/api/admin/sessions/${p.id}`,
    }),
    t({
      name: "DELETE admin session",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminSession, "DELETE"),
      path: (p) => `/api/admin/sessions/${p.id}`,
    }),
    t({
      name: "GET admin tools",
      method: "GET",
      who: "admin",
      handler: h(r.adminTools, "GET"),
      path: () => "/api/admin/tools",
    }),
    t({
      name: "GET admin tool",
      method: "GET",
      who: "admin",
      params: ["id"],
      handler: h(r.adminTool, "GET"),
      path: (p) => `/api/admin/tools/${p.id}`,
    }),
    t({
      name: "DELETE admin tool",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminTool, "DELETE"),
      path: (p) => `/api/admin/tools/${p.id}`,
    }),
    t({
      name: "GET session tools",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.sessionTools, "GET"),
      path: (p) => `/api/sessions/${p.id}/tools`,
    }),
    t({
      name: "GET admin turn context",
      method: "GET",
      who: "admin",
      params: ["id", "messageId"],
      handler: h(r.adminContext, "GET"),
      path: (p) => `/api/admin/sessions/${p.id}/turns/${p.messageId}/context`,
    }),
    t({
      name: "DELETE admin user keys",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminKeys, "DELETE"),
      path: (p) => `/api/admin/users/${p.id}/keys`,
    }),
    t({
      name: "DELETE admin user memories",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminMemories, "DELETE"),
      path: (p) => `/api/admin/users/${p.id}/memories`,
    }),
    t({
      name: "GET models",
      method: "GET",
      who: "user",
      handler: h(r.apiModels, "GET"),
      path: () => "/api/models",
    }),
    t({
      name: "GET admin models",
      method: "GET",
      who: "admin",
      handler: h(r.adminModels, "GET"),
      path: () => "/api/admin/models",
    }),
    t({
      name: "DELETE admin model",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminModel, "DELETE"),
      path: (p) => `/api/admin/models/${p.id}`,
    }),
    t({
      name: "POST admin models",
      method: "POST",
      who: "admin",
      handler: h(r.adminModels, "POST"),
      path: () => "/api/admin/models",
      body: bodyOf([
        "name",
        "provider",
        "baseUrl",
        "apiKey",
        "modelId",
        "contextTokens",
        "vision",
        "enabled",
      ]),
      accepts: (b) => !refusedBy(modelInput)(b),
    }),
    t({
      name: "PATCH admin model",
      method: "PATCH",
      who: "admin",
      params: ["id"],
      handler: h(r.adminModel, "PATCH"),
      path: (p) => `/api/admin/models/${p.id}`,
      body: bodyOf(["name", "baseUrl", "apiKey", "contextTokens", "tools", "enabled"]),
      accepts: (b) => !refusedBy(modelPatch)(b),
    }),
    t({
      name: "GET me usage",
      method: "GET",
      who: "user",
      handler: h(r.meUsage, "GET"),
      path: () => "/api/me/usage",
    }),
    t({
      name: "POST admin user password reset",
      method: "POST",
      who: "admin",
      params: ["id"],
      handler: h(r.passwordReset, "POST"),
      path: (p) => `/api/admin/users/${p.id}/password-reset`,
      body: bodyOf([]), // not read; sent so the request passes the CSRF guard's JSON check
    }),
    t({
      name: "DELETE admin user",
      method: "DELETE",
      who: "admin",
      params: ["id"],
      handler: h(r.adminUser, "DELETE"),
      path: (p) => `/api/admin/users/${p.id}`,
    }),
    t({
      name: "GET attachment",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.attachment, "GET"),
      path: (p) => `/api/attachments/${p.id}`,
    }),
    t({
      name: "DELETE attachment",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.attachment, "DELETE"),
      path: (p) => `/api/attachments/${p.id}`,
    }),
    t({
      name: "DELETE key",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.key, "DELETE"),
      path: (p) => `/api/keys/${p.id}`,
    }),
    t({
      name: "GET health",
      method: "GET",
      who: "public",
      handler: h(r.health, "GET"),
      path: () => "/api/health",
    }),
    t({ name: "GET keys", method: "GET", who: "user", handler: h(r.keys, "GET"), path: () => "/api/keys" }),
    t({
      name: "GET shares",
      method: "GET",
      who: "user",
      handler: h(r.shares, "GET"),
      path: () => "/api/shares",
    }),
    t({
      name: "DELETE share",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.share, "DELETE"),
      path: (p) => `/api/shares/${p.id}`,
    }),
    t({
      name: "POST session share",
      method: "POST",
      who: "user",
      params: ["id"],
      handler: h(r.sessionShare, "POST"),
      path: (p) => `/api/sessions/${p.id}/share`,
    }),
    t({
      name: "GET me export",
      method: "GET",
      who: "user",
      handler: h(r.meExport, "GET"),
      path: () => "/api/me/export",
    }),
    t({
      name: "GET me settings",
      method: "GET",
      who: "user",
      handler: h(r.settings, "GET"),
      path: () => "/api/me/settings",
    }),
    t({
      name: "GET me instructions",
      method: "GET",
      who: "user",
      handler: h(r.instructions, "GET"),
      path: () => "/api/me/instructions",
    }),
    t({
      name: "DELETE memory",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.memory, "DELETE"),
      path: (p) => `/api/memories/${p.id}`,
    }),
    t({
      name: "GET memory",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.memory, "GET"),
      path: (p) => `/api/memories/${p.id}`,
    }),
    t({
      name: "GET memories",
      method: "GET",
      who: "user",
      handler: h(r.memories, "GET"),
      path: () => "/api/memories",
    }),
    t({
      name: "GET projects",
      method: "GET",
      who: "user",
      handler: h(r.projects, "GET"),
      path: () => "/api/projects",
    }),
    t({
      name: "POST projects",
      method: "POST",
      who: "user",
      handler: h(r.projects, "POST"),
      path: () => "/api/projects",
      body: bodyOf(["name", "instructions"]),
      accepts: (b) => !refusedBy(createProjectSchema)(b),
    }),
    t({
      name: "DELETE project",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.project, "DELETE"),
      path: (p) => `/api/projects/${p.id}`,
    }),
    t({
      name: "PATCH project",
      method: "PATCH",
      who: "user",
      params: ["id"],
      handler: h(r.project, "PATCH"),
      path: (p) => `/api/projects/${p.id}`,
      body: bodyOf(["name", "instructions"]),
      accepts: (b) => !refusedBy(updateProjectSchema)(b),
    }),
    t({
      name: "GET project files",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.projectFiles, "GET"),
      path: (p) => `/api/projects/${p.id}/files`,
    }),
    t({
      name: "POST project files",
      method: "POST",
      who: "user",
      params: ["id"],
      handler: h(r.projectFiles, "POST"),
      path: (p) => `/api/projects/${p.id}/files`,
      body: bodyOf(["file"]),
    }),
    t({
      name: "DELETE project file",
      method: "DELETE",
      who: "user",
      params: ["id", "fileId"],
      handler: h(r.projectFile, "DELETE"),
      path: (p) => `/api/projects/${p.id}/files/${p.fileId}`,
    }),
    t({
      name: "GET search",
      method: "GET",
      who: "user",
      handler: h(r.search, "GET"),
      path: () => "/api/search",
    }),
    t({
      name: "GET session export",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.sessionExport, "GET"),
      path: (p) => `/api/sessions/${p.id}/export`,
    }),
    t({
      name: "POST memory clear",
      method: "POST",
      who: "user",
      params: ["id"],
      handler: h(r.memoryClear, "POST"),
      path: (p) => `/api/sessions/${p.id}/memory/clear`,
    }),
    t({
      name: "GET session memory",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.sessionMemory, "GET"),
      path: (p) => `/api/sessions/${p.id}/memory`,
    }),
    t({
      name: "GET session",
      method: "GET",
      who: "user",
      params: ["id"],
      handler: h(r.session, "GET"),
      path: (p) => `/api/sessions/${p.id}`,
    }),
    t({
      name: "DELETE session",
      method: "DELETE",
      who: "user",
      params: ["id"],
      handler: h(r.session, "DELETE"),
      path: (p) => `/api/sessions/${p.id}`,
    }),
    t({
      name: "GET turn context",
      method: "GET",
      who: "user",
      params: ["id", "messageId"],
      handler: h(r.context, "GET"),
      path: (p) => `/api/sessions/${p.id}/turns/${p.messageId}/context`,
    }),
    t({
      name: "POST answer stop",
      method: "POST",
      who: "user",
      params: ["id", "messageId"],
      handler: h(r.answerStop, "POST"),
      path: (p) => `/api/sessions/${p.id}/messages/${p.messageId}/stop`,
    }),
    t({
      name: "GET answer stream",
      method: "GET",
      who: "user",
      params: ["id", "messageId"],
      handler: h(r.answerStream, "GET"),
      path: (p) => `/api/sessions/${p.id}/messages/${p.messageId}/stream`,
    }),
    t({
      name: "GET sessions",
      method: "GET",
      who: "user",
      handler: h(r.sessions, "GET"),
      path: () => "/api/sessions",
    }),
    t({
      name: "GET v1 models",
      method: "GET",
      who: "v1",
      handler: h(r.models, "GET"),
      path: () => "/v1/models",
    }),
    // Writes: hostile bodies on the caller's own rows (ids of their own session, fact and key).
    t({
      name: "POST admin invites",
      method: "POST",
      who: "admin",
      handler: h(r.invites, "POST"),
      path: () => "/api/admin/invites",
      body: bodyOf(["validDays"]),
      accepts: (b) => !refusedBy(inviteSchema)(b),
    }),
    t({
      name: "PATCH admin user",
      method: "PATCH",
      who: "admin",
      params: ["own:user"],
      handler: h(r.adminUser, "PATCH"),
      path: (p) => `/api/admin/users/${p["own:user"]}`,
      body: bodyOf(["role", "disabled"]),
      accepts: (b) => !refusedBy(updateUserSchema)(b),
    }),
    t({
      name: "POST admin tools",
      method: "POST",
      who: "admin",
      handler: h(r.adminTools, "POST"),
      path: () => "/api/admin/tools",
      body: bodyOf(["name", "transport", "command", "args", "env", "url", "headers", "enabled", "timeoutMs"]),
      accepts: (b) => !refusedBy(serverInput)(b),
    }),
    t({
      name: "PATCH admin tool",
      method: "PATCH",
      who: "admin",
      params: ["id"],
      handler: h(r.adminTool, "PATCH"),
      path: (p) => `/api/admin/tools/${p.id}`,
      body: bodyOf(["name", "transport", "command", "url", "enabled", "maxResultChars"]),
      accepts: (b) => !refusedBy(serverPatch)(b),
    }),
    t({
      name: "POST me password",
      method: "POST",
      who: "user",
      handler: h(r.password, "POST"),
      path: () => "/api/me/password",
      body: bodyOf(["currentPassword", "newPassword", "revokeApiKeys"]),
      accepts: (b) => !refusedBy(passwordChangeSchema)(b),
    }),
    t({
      name: "PATCH me",
      method: "PATCH",
      who: "user",
      handler: h(r.me, "PATCH"),
      path: () => "/api/me",
      body: bodyOf(["name", "email", "currentPassword"]),
      accepts: (b) => !refusedBy(profileSchema)(b),
    }),
    t({
      name: "DELETE me",
      method: "DELETE",
      who: "user",
      handler: h(r.me, "DELETE"),
      path: () => "/api/me",
      body: bodyOf(["password"]),
      accepts: (b) => !refusedBy(deleteAccountSchema)(b),
    }),
    t({
      name: "PATCH session tools",
      method: "PATCH",
      who: "user",
      params: ["own:session"],
      handler: h(r.sessionTools, "PATCH"),
      path: (p) => `/api/sessions/${p["own:session"]}/tools`,
      body: bodyOf(["servers"]),
      accepts: (b) => !refusedBy(sessionToolsPatch)(b),
    }),
    t({
      name: "POST attachments",
      method: "POST",
      who: "user",
      handler: h(r.attachments, "POST"),
      path: () => "/api/attachments",
      body: bodyOf(["file"]),
    }),
    t({
      name: "POST import",
      method: "POST",
      who: "user",
      handler: h(r.importRoute, "POST"),
      path: () => "/api/import",
      body: bodyOf([
        "format",
        "version",
        "exportedAt",
        "attachments",
        "conversations",
        "longTermMemory",
        "instructions",
      ]),
    }),
    t({
      name: "POST keys",
      method: "POST",
      who: "user",
      handler: h(r.keys, "POST"),
      path: () => "/api/keys",
      body: bodyOf(["name"]),
      accepts: (b) => !refusedBy(createApiKeySchema)(b),
    }),
    t({
      name: "PATCH me settings",
      method: "PATCH",
      who: "user",
      handler: h(r.settings, "PATCH"),
      path: () => "/api/me/settings",
      body: bodyOf(["longTermMemory", "memoryExtraction"]),
      accepts: (b) => !refusedBy(userSettingsSchema)(b),
    }),
    t({
      name: "PATCH me instructions",
      method: "PATCH",
      who: "user",
      handler: h(r.instructions, "PATCH"),
      path: () => "/api/me/instructions",
      body: bodyOf(["aboutMe", "howToAnswer"]),
      accepts: (b) => !refusedBy(userInstructionsSchema)(b),
    }),
    t({
      name: "PATCH memory",
      method: "PATCH",
      who: "user",
      params: ["own:fact"],
      handler: h(r.memory, "PATCH"),
      path: (p) => `/api/memories/${p["own:fact"]}`,
      body: bodyOf(["text", "expiresAt", "status"]),
      accepts: (b) => !refusedBy(updateFactSchema)(b),
    }),
    t({
      name: "POST register",
      method: "POST",
      who: "public",
      handler: h(r.register, "POST"),
      path: () => "/api/register",
      body: bodyOf(["email", "password", "name", "inviteCode"]),
      accepts: (b) => !refusedBy(registerSchema)(b),
    }),
    t({
      name: "PATCH session memory",
      method: "PATCH",
      who: "user",
      params: ["own:session"],
      handler: h(r.sessionMemory, "PATCH"),
      path: (p) => `/api/sessions/${p["own:session"]}/memory`,
      body: bodyOf(["enabled", "policy", "maxMessages", "maxTokens"]),
      accepts: (b) => !memoryRefused(b),
    }),
    t({
      name: "POST messages",
      method: "POST",
      who: "user",
      params: ["own:session"],
      handler: h(r.messages, "POST"),
      path: (p) => `/api/sessions/${p["own:session"]}/messages`,
      body: bodyOf(["content", "attachments", "parentId", "retryMessageId", "regenerate", "model"]),
      accepts: (b) => !refusedBy(turnInputSchema)(b),
    }),
    t({
      name: "PATCH session",
      method: "PATCH",
      who: "user",
      params: ["own:session"],
      handler: h(r.session, "PATCH"),
      path: (p) => `/api/sessions/${p["own:session"]}`,
      body: bodyOf(["title", "activeLeafId", "model", "systemPrompt"]),
      accepts: (b) => !refusedBy(updateSessionSchema)(b),
    }),
    t({
      name: "POST sessions",
      method: "POST",
      who: "user",
      handler: h(r.sessions, "POST"),
      path: () => "/api/sessions",
      body: bodyOf(["title"]),
      accepts: (b) => !refusedBy(createSessionSchema)(b),
    }),
    t({
      name: "POST v1 chat completions",
      method: "POST",
      who: "v1",
      handler: h(r.completions, "POST"),
      path: () => "/v1/chat/completions",
      body: bodyOf(["model", "messages", "stream", "user", "metadata"]),
      accepts: (b) => !refusedBy(chatCompletionRequestSchema)(b),
    }),
  ];
}

/** The invite route's own schema (a route module may export only its handlers). */
const inviteSchema = zod.object({ validDays: zod.number().int().min(1).max(365).default(7) });

/** A path parameter: a hostile string, a made-up id, or a real id the caller may not use. */
function idOf(name: string, who: Who): fc.Arbitrary<string> {
  if (name === "own:session") return fc.constant(world.sessionId);
  if (name === "own:fact") return fc.constant(world.factId);
  if (name === "own:user") return fc.constant(world.other.id);
  const made = [hostileString.filter((s) => s.length > 0), fc.constant(randomUUID())];
  // An administrator may delete anyone's rows: only a user is handed ids that exist but are not theirs.
  if (who === "admin") return fc.oneof(...made);
  return fc.oneof(...made, fc.constant(world.otherSessionId), fc.constant(world.messageId));
}

const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.constantFrom(
          "q",
          "cursor",
          "limit",
          "before",
          "include",
          "format",
          "all",
          "attachments",
          "thumb",
          "pathFrom",
          "status",
          "messageId",
          "x",
        ),
        hostileValue.map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""))),
      ),
      { maxLength: 3 },
    )
    .map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
);

function request(target: Target, params: Record<string, string>, q: string, body: unknown): Request {
  // Path parameters reach a handler decoded (Next decodes them); the URL carries them encoded.
  const path = target.path(
    Object.fromEntries(Object.entries(params).map(([k, v]) => [k, encodeURIComponent(v)])),
  );
  const headers: Record<string, string> = { host: "127.0.0.1", origin: ORIGIN };
  if (target.who === "v1") headers.authorization = `Bearer ${world.apiKey}`;
  let payload: BodyInit | undefined;
  if (target.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = body instanceof Raw ? body.text : JSON.stringify(body);
  }
  return new Request(`${ORIGIN}${path}${q}`, { method: target.method, headers, body: payload });
}

const STACK = /\n\s+at |node_modules|Prisma|\.ts:\d+|SQLITE_|syntax error|relation "/;

async function expectRefusal(target: Target, res: Response, sent: string) {
  const text = await res.text();
  const why = `${target.name} ${sent} → ${res.status} ${text.slice(0, 300)}`;
  expect(res.status, why).toBeGreaterThanOrEqual(400);
  expect(res.status, why).toBeLessThan(500);
  expect(res.headers.get("content-type") ?? "", why).toContain("application/json");
  const json = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  expect(typeof json.error?.code, why).toBe("string");
  expect(typeof json.error?.message, why).toBe("string");
  expect(text, why).not.toMatch(STACK);
}

describe(`fuzzing every route (${kind})`, () => {
  let all: Target[] = [];
  beforeAll(async () => {
    world = await makeWorld();
    all = await targets();
  });

  it("covers every route handler of app/api and app/v1", async () => {
    const { readdirSync } = await import("node:fs");
    const files = ["api", "v1"].flatMap((dir) =>
      readdirSync(`app/${dir}`, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith("route.ts"))
        .map((f) => `app/${dir}/${f}`),
    );
    // next-auth's own handlers, and sign-out-everywhere, which takes no input and always succeeds.
    const untested = ["app/api/auth/[...nextauth]/route.ts", "app/api/auth/sign-out-everywhere/route.ts"];
    let exported = 0;
    for (const f of files.filter((x) => !untested.includes(x))) {
      const mod = await load(`@/${f.replace(/\.ts$/, "")}`);
      exported += ["GET", "POST", "PATCH", "PUT", "DELETE"].filter(
        (m) => typeof mod[m] === "function",
      ).length;
    }
    expect(all.length).toBe(exported);
  });

  it("answers hostile input with a 4xx JSON error and changes nothing", async () => {
    const before = await snapshot();
    for (const target of all) {
      const paramArbs = Object.fromEntries(target.params.map((p) => [p, idOf(p, target.who)]));
      const arb = fc.record({
        params: fc.record(paramArbs) as fc.Arbitrary<Record<string, string>>,
        q: query,
        body: target.body ?? fc.constant(undefined),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ params, q, body }) => {
          if (target.accepts?.(body)) return;
          const who = target.who === "admin" ? world.admin.id : world.user.id;
          vi.mocked(sessionClaims).mockResolvedValue(
            target.who === "public" ? null : { uid: who, ver: 0, sid: null },
          );
          const handlerParams = Object.fromEntries(
            Object.entries(params).map(([k, v]) => [k.replace(/^own:\w+$/, "id"), v]),
          );
          const res = await target.handler(request(target, params, q, body), {
            params: Promise.resolve(handlerParams),
          });
          // A read of something that exists is allowed to succeed; it must still have changed nothing.
          if (res.ok && target.method === "GET") return;
          await expectRefusal(target, res, JSON.stringify({ params, q, body })?.slice(0, 300) ?? "");
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});
