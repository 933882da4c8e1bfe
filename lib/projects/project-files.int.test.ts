import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { answerIdOf, answerOf, closeApps, contextOf, loadApp } from "@/lib/chat/test-helpers";
import { parseListing } from "@/lib/llm/scripted-listing";

// Project files against the real database of this run (SQLite or PostgreSQL): uploads through the route handlers
// (real CSRF check, signed-in users mocked at the token), the chunks and index rows they leave, the passages a
// project conversation's turn recalls (scripted model: it answers with what it was sent), deletion of a file, a
// project and a user, and scope `all` inside a project.

vi.mock("@/lib/auth/session-token", () => ({ sessionClaims: vi.fn() }));

afterEach(closeApps);

const BASE = "http://127.0.0.1:3000";
const word = () => `zf${randomUUID().replace(/-/g, "").slice(0, 10)}`;

/** What the routes answer, loosely: each test reads the part its route sends. */
interface Body {
  file: { id: string; name: string; mime: string; bytes: number; chunkCount: number };
  files: { id: string }[];
  receipt: { fileId?: string; deleted: Record<string, number> };
  error: { code: string; message: string; details?: Record<string, number> };
}

async function app(vars: Record<string, string> = {}) {
  const loaded = await loadApp({ OFFLINE_MODEL: "scripted", MEMORY_MAX_MESSAGES: "2", ...vars });
  const { sessionClaims } = await import("@/lib/auth/session-token");
  const files = await import("@/app/api/projects/[id]/files/route");
  const file = await import("@/app/api/projects/[id]/files/[fileId]/route");
  const project = await import("@/app/api/projects/[id]/route");
  const memory = await import("@/lib/chat/memory-settings");
  const { deleteUserForAdmin } = await import("@/lib/db/admin-users");
  const { env } = await import("@/lib/env");
  const signIn = (userId: string) =>
    vi.mocked(sessionClaims).mockResolvedValue({ uid: userId, ver: 0, sid: null });
  const write = { origin: BASE, host: "127.0.0.1:3000" };

  async function upload(userId: string, projectId: string, content: Uint8Array | string, name: string) {
    signIn(userId);
    const form = new FormData();
    form.append("file", new Blob([typeof content === "string" ? content : new Uint8Array(content)]), name);
    const res = await files.POST(
      new Request(`${BASE}/api/projects/${projectId}/files`, { method: "POST", headers: write, body: form }),
      { params: Promise.resolve({ id: projectId }) },
    );
    return { status: res.status, body: (await res.json()) as Body };
  }
  async function list(userId: string, projectId: string) {
    signIn(userId);
    const res = await files.GET(new Request(`${BASE}/api/projects/${projectId}/files`), {
      params: Promise.resolve({ id: projectId }),
    });
    return { status: res.status, body: (await res.json()) as Body };
  }
  async function remove(userId: string, projectId: string, fileId: string) {
    signIn(userId);
    const res = await file.DELETE(
      new Request(`${BASE}/api/projects/${projectId}/files/${fileId}`, { method: "DELETE", headers: write }),
      { params: Promise.resolve({ id: projectId, fileId }) },
    );
    return { status: res.status, body: (await res.json()) as Body };
  }
  async function deleteProject(userId: string, projectId: string, keep = false) {
    signIn(userId);
    const res = await project.DELETE(
      new Request(`${BASE}/api/projects/${projectId}${keep ? "?keep=true" : ""}`, {
        method: "DELETE",
        headers: write,
      }),
      { params: Promise.resolve({ id: projectId }) },
    );
    return { status: res.status, body: (await res.json()) as Body };
  }
  return { ...loaded, upload, list, remove, deleteProject, memory, deleteUserForAdmin, env };
}
type App = Awaited<ReturnType<typeof app>>;

async function userWithProject(a: App) {
  const user = await a.db.user.create({
    data: { email: `pf-${randomUUID()}@example.test`, name: "Files", passwordHash: "unused" },
  });
  const project = await a.db.project.create({ data: { userId: user.id, name: "Client A" } });
  const session = await a.db.chatSession.create({
    data: { userId: user.id, title: "In the project", projectId: project.id },
  });
  return { userId: user.id, projectId: project.id, sessionId: session.id };
}

interface FileEntry {
  source: "file";
  fileId: string;
  fileName: string;
  chunkId: number;
  position: number;
  chunkCount: number;
  score: number;
  tokens: number;
  preview: string;
}

async function fileEntriesOf(a: App, events: Awaited<ReturnType<App["turn"]>>) {
  const { entries } = await contextOf(a.db, answerIdOf(events));
  return entries.filter((e) => e.source === "file") as unknown as FileEntry[];
}

/** The recall section as the scripted model received it (its lines), or [] when none was sent. */
function sectionOf(events: Awaited<ReturnType<App["turn"]>>): string[] {
  const listing = parseListing(answerOf(events));
  if (!listing) throw new Error(`not a listing: ${answerOf(events)}`);
  const section = listing.entries.find((m) => m.role === "system" && m.text.startsWith("Earlier messages"));
  return section?.text.split(" ⏎ ") ?? [];
}

/** How many FTS5 rows (SQLite) or indexed chunks (PostgreSQL) the project has. */
async function indexRowsOf(a: App, projectId: string): Promise<number> {
  if (a.env.DATABASE_URL.startsWith("file:")) {
    const [row] = await a.db.$queryRawUnsafe<{ n: bigint }[]>(
      `SELECT COUNT(*) AS n FROM "ProjectChunkFts" WHERE "ProjectChunkFts" MATCH ?`,
      `proj : "p${Buffer.from(projectId).toString("hex")}"`,
    );
    return Number(row?.n);
  }
  const [row] = await a.db.$queryRawUnsafe<{ n: bigint }[]>(
    `SELECT COUNT(*) AS n FROM "ProjectFileChunk" WHERE "projectId" = $1 AND "terms" IS NOT NULL`,
    projectId,
  );
  return Number(row?.n);
}

/** A one-page PDF whose text layer holds `lines` (built by hand: a test fixture, not a parser). */
function pdfOf(lines: string[]): Uint8Array {
  const content = `BT /F1 12 Tf 72 720 Td ${lines
    .map((l, i) => `${i ? "0 -16 Td " : ""}(${l.replace(/[()\\]/g, "\\$&")}) Tj`)
    .join(" ")} ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

describe("project files", () => {
  it("upload cuts a file into indexed chunks; a project conversation's turn recalls the passage with its file and position", async () => {
    const a = await app();
    const { userId, projectId, sessionId } = await userWithProject(a);
    const code = word();
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => `Paragraph ${i} is about the office plants and coffee.`).join(
        "\n\n",
      );
    const text = `# Handbook\n\n${filler(30)}\n\n## Access\n\nThe server room badge code is ${code}.\n\n${filler(30)}`;
    const up = await a.upload(userId, projectId, text, "handbook.md");
    expect(up.status).toBe(201);
    expect(up.body.file).toMatchObject({ name: "handbook.md", mime: "text/markdown", bytes: text.length });
    const chunkCount = up.body.file.chunkCount as number;
    expect(chunkCount).toBeGreaterThan(2);
    const chunks = await a.db.projectFileChunk.findMany({
      where: { fileId: up.body.file.id },
      orderBy: { position: "asc" },
    });
    expect(chunks.map((c) => c.position)).toEqual(Array.from({ length: chunkCount }, (_, i) => i + 1));
    expect(await indexRowsOf(a, projectId)).toBe(chunkCount);
    const holding = chunks.find((c) => c.text.includes(code));
    expect(holding?.text.startsWith("## Access")).toBe(true);

    const listed = await a.list(userId, projectId);
    expect(listed.status).toBe(200);
    expect(listed.body.files.map((f) => f.id)).toEqual([up.body.file.id]);

    const events = await a.turn(sessionId, userId, `What is the server room badge code ${code}?`);
    const entries = await fileEntriesOf(a, events);
    const hit = entries.find((e) => e.chunkId === holding?.id);
    expect(hit).toMatchObject({
      source: "file",
      fileId: up.body.file.id,
      fileName: "handbook.md",
      position: holding?.position,
      chunkCount,
    });
    expect(hit?.score).toBeGreaterThan(0);
    expect(hit?.tokens).toBeGreaterThan(0);
    expect(sectionOf(events)).toContain(
      `- [file "handbook.md" · part ${holding?.position} of ${chunkCount}] ## Access`,
    );
    expect(sectionOf(events).join("\n")).toContain(`The server room badge code is ${code}.`);

    // The same question outside the project: no passage.
    const outside = await a.db.chatSession.create({ data: { userId, title: "Elsewhere" } });
    const away = await a.turn(outside.id, userId, `What is the server room badge code ${code}?`);
    expect(await fileEntriesOf(a, away)).toEqual([]);
  });

  it("keeps the passages within recallMaxTokens, and sends none with recall off", async () => {
    const a = await app();
    const { userId, projectId, sessionId } = await userWithProject(a);
    const w = word();
    const text = Array.from(
      { length: 40 },
      (_, i) => `Note ${i}: the ${w} ledger line ${i} ${"x".repeat(200)}`,
    ).join("\n\n");
    expect((await a.upload(userId, projectId, text, "ledger.txt")).status).toBe(201);
    await a.memory.updateMemorySettings({ sessionId, userId, change: { recallMaxTokens: 300 } });
    const events = await a.turn(sessionId, userId, `${w} ledger?`);
    const { entries } = await contextOf(a.db, answerIdOf(events));
    const section = entries.filter(
      (e) => e.source === "recall" || e.source === "recalled" || e.source === "file",
    );
    expect(section.filter((e) => e.source === "file").length).toBeGreaterThan(0);
    expect(
      section.reduce((sum, e) => sum + (e as unknown as { tokens: number }).tokens, 0),
    ).toBeLessThanOrEqual(300);

    await a.memory.updateMemorySettings({ sessionId, userId, change: { recall: "off" } });
    const off = await a.turn(sessionId, userId, `${w} ledger?`);
    expect(await fileEntriesOf(a, off)).toEqual([]);
  });

  it("reads a PDF's text layer", async () => {
    const a = await app();
    const { userId, projectId, sessionId } = await userWithProject(a);
    const w = word();
    const up = await a.upload(
      userId,
      projectId,
      pdfOf([`The invoice reference is ${w}.`, "Pay within 30 days."]),
      "invoice.pdf",
    );
    expect(up.status).toBe(201);
    expect(up.body.file).toMatchObject({ name: "invoice.pdf", mime: "application/pdf", chunkCount: 1 });
    const [chunk] = await a.db.projectFileChunk.findMany({ where: { fileId: up.body.file.id } });
    expect(chunk?.text).toContain(`The invoice reference is ${w}.`);
    const events = await a.turn(sessionId, userId, `invoice reference ${w}?`);
    expect((await fileEntriesOf(a, events)).map((e) => e.fileName)).toEqual(["invoice.pdf"]);
  });

  it("deleting a file removes its chunks and index rows in that transaction, and it is no longer recalled", async () => {
    const a = await app();
    const { userId, projectId, sessionId } = await userWithProject(a);
    const w = word();
    const kept = await a.upload(userId, projectId, `Kept notes mention ${w} once.`, "kept.txt");
    const gone = await a.upload(
      userId,
      projectId,
      `The vault phrase is ${w} indeed.\n\nMore ${w}.`,
      "gone.txt",
    );
    expect(await indexRowsOf(a, projectId)).toBe(2);
    const before = await a.turn(sessionId, userId, `${w}?`);
    expect((await fileEntriesOf(a, before)).map((e) => e.fileName).sort()).toEqual(["gone.txt", "kept.txt"]);

    const del = await a.remove(userId, projectId, gone.body.file.id);
    expect(del.status).toBe(200);
    expect(del.body.receipt).toEqual({
      fileId: gone.body.file.id,
      deleted: { ProjectFile: 1, ProjectFileChunk: 1 },
    });
    expect(await a.db.projectFileChunk.count({ where: { fileId: gone.body.file.id } })).toBe(0);
    expect(await indexRowsOf(a, projectId)).toBe(1);
    const after = await a.turn(sessionId, userId, `${w}?`);
    expect((await fileEntriesOf(a, after)).map((e) => e.fileName)).toEqual(["kept.txt"]);
    expect(sectionOf(after).join("\n")).not.toContain("vault phrase");
    expect((await a.list(userId, projectId)).body.files.map((f) => f.id)).toEqual([kept.body.file.id]);

    // Again: 404, nothing else touched.
    expect((await a.remove(userId, projectId, gone.body.file.id)).body.error.code).toBe("not_found");
  });

  it("someone else's project is a 404 for upload, list and delete, and nothing is written", async () => {
    const a = await app();
    const owner = await userWithProject(a);
    const other = await userWithProject(a);
    const up = await a.upload(owner.userId, owner.projectId, "mine", "mine.txt");
    const tries = [
      await a.upload(other.userId, owner.projectId, "theirs", "theirs.txt"),
      await a.list(other.userId, owner.projectId),
      await a.remove(other.userId, owner.projectId, up.body.file.id),
      // The file id with their own project: not in it.
      await a.remove(other.userId, other.projectId, up.body.file.id),
      await a.upload(owner.userId, "no-such-project", "x", "x.txt"),
    ];
    for (const t of tries) expect([t.status, t.body.error.code]).toEqual([404, "not_found"]);
    expect(await a.db.projectFile.count({ where: { projectId: owner.projectId } })).toBe(1);
    expect(await a.db.projectFile.count({ where: { projectId: other.projectId } })).toBe(0);
  });

  it("refuses an empty file, a file over PROJECT_FILE_MAX_BYTES, an image or binary, and text-less content, with codes", async () => {
    const a = await app({ PROJECT_FILE_MAX_BYTES: "1000" });
    const { userId, projectId } = await userWithProject(a);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const cases: [Uint8Array | string, string, number, string][] = [
      ["", "empty.txt", 400, "bad_request"],
      ["x".repeat(1001), "big.txt", 413, "payload_too_large"],
      [png, "photo.png", 415, "unsupported_media_type"],
      [new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0, 0]), "a.out", 415, "unsupported_media_type"],
      ["%PDF-1.4 not really a pdf", "broken.pdf", 415, "unsupported_media_type"],
      ["  \n\n \t \n", "blank.md", 422, "validation_failed"],
    ];
    for (const [content, name, status, code] of cases) {
      const res = await a.upload(userId, projectId, content, name);
      expect([name, res.status, res.body.error?.code]).toEqual([name, status, code]);
      expect(res.body.error.message).not.toMatch(/at |Error:/);
    }
    expect((await a.upload(userId, projectId, "x".repeat(1000), "fits.txt")).status).toBe(201);
    expect(await a.db.projectFile.count({ where: { projectId } })).toBe(1);
  });

  it("says the limits it refused by in the error's details (the files panel names them)", async () => {
    const a = await app({ PROJECT_FILE_MAX_BYTES: "1000" });
    const { userId, projectId } = await userWithProject(a);
    const big = await a.upload(userId, projectId, "x".repeat(1001), "big.txt");
    expect([big.status, big.body.error.details]).toEqual([413, { maxBytes: 1000 }]);
    await a.db.projectFile.createMany({
      data: Array.from({ length: 100 }, (_, i) => ({
        projectId,
        userId,
        name: `f${i}.txt`,
        mime: "text/plain",
        bytes: 1,
        chunkCount: 0,
      })),
    });
    const full = await a.upload(userId, projectId, "one more", "more.txt");
    expect([full.status, full.body.error.code, full.body.error.details]).toEqual([
      422,
      "validation_failed",
      { maxFiles: 100 },
    ]);
    expect(await a.db.projectFile.count({ where: { projectId } })).toBe(100);
  });

  it("deleting a project (either mode) or its user removes its files and chunks, counted in the receipt", async () => {
    const a = await app();
    for (const keep of [false, true]) {
      const { userId, projectId } = await userWithProject(a);
      const up = await a.upload(userId, projectId, "one\n\n".repeat(1) + "x".repeat(1500), "notes.txt");
      const chunks = up.body.file.chunkCount as number;
      const res = await a.deleteProject(userId, projectId, keep);
      expect(res.status).toBe(200);
      expect(res.body.receipt.deleted).toMatchObject({
        Project: 1,
        ProjectFile: 1,
        ProjectFileChunk: chunks,
      });
      expect(await a.db.projectFileChunk.count({ where: { projectId } })).toBe(0);
      expect(await indexRowsOf(a, projectId)).toBe(0);
    }
    const admin = await a.db.user.create({
      data: {
        email: `pf-admin-${randomUUID()}@example.test`,
        name: "Admin",
        passwordHash: "x",
        role: "ADMIN",
      },
    });
    const { userId, projectId } = await userWithProject(a);
    await a.upload(userId, projectId, "alpha", "a.txt");
    await a.upload(userId, projectId, "beta", "b.txt");
    const receipt = await a.deleteUserForAdmin({ actorId: admin.id, userId });
    expect(receipt.deleted).toMatchObject({ Project: 1, ProjectFile: 2, ProjectFileChunk: 2 });
    expect(await a.db.projectFile.count({ where: { userId } })).toBe(0);
    expect(await a.db.projectFileChunk.count({ where: { userId } })).toBe(0);
    expect(await indexRowsOf(a, projectId)).toBe(0);
  });
});

describe("recall with scope all inside a project", () => {
  it("recalls from the project's other conversations, never from the user's conversations outside it", async () => {
    const a = await app();
    const { userId, projectId, sessionId } = await userWithProject(a);
    const w = word();
    const sibling = await a.db.chatSession.create({ data: { userId, title: "Sibling", projectId } });
    const outside = await a.db.chatSession.create({ data: { userId, title: "Outside" } });
    const otherProject = await a.db.project.create({ data: { userId, name: "Client B" } });
    const elsewhere = await a.db.chatSession.create({
      data: { userId, title: "Other project", projectId: otherProject.id },
    });
    await a.turn(sibling.id, userId, `Inside the project the ${w} is teal`);
    await a.turn(outside.id, userId, `Outside any project the ${w} is orange`);
    await a.turn(elsewhere.id, userId, `In another project the ${w} is purple`);
    await a.memory.updateMemorySettings({ sessionId, userId, change: { recall: "all" } });
    const events = await a.turn(sessionId, userId, `What colour is the ${w}?`);
    const { entries } = await contextOf(a.db, answerIdOf(events));
    const from = new Set(
      entries.flatMap((e) =>
        e.source === "recalled" ? [(e as unknown as { sessionId: string }).sessionId] : [],
      ),
    );
    expect([...from]).toEqual([sibling.id]);
    const text = sectionOf(events).join("\n");
    expect(text).toContain("teal");
    expect(text).not.toContain("orange");
    expect(text).not.toContain("purple");

    // Outside the project, scope all still reaches every other conversation of the user (its own statement is in
    // its window).
    await a.memory.updateMemorySettings({ sessionId: outside.id, userId, change: { recall: "all" } });
    const wide = await a.turn(outside.id, userId, `What colour is the ${w}?`);
    const wideFrom = new Set(
      (await contextOf(a.db, answerIdOf(wide))).entries.flatMap((e) =>
        e.source === "recalled" ? [(e as unknown as { sessionId: string }).sessionId] : [],
      ),
    );
    expect(wideFrom).toEqual(new Set([sibling.id, elsewhere.id, sessionId]));
  });
});
