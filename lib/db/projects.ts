import "server-only";
import { AppError } from "@/lib/errors";
import { MAX_PROJECTS } from "@/lib/projects/limits";
import { checkpointed } from "./checkpoint";
import { db, type TxOption } from "./client";
import { recordFactVersion } from "./fact-history";
import { keepFactsOfSessions } from "./kept-facts";
import { countFilesOfProjects } from "./project-files";
import { countRowsOfSessions, type DeletedRows, noDeletedRows } from "./receipts";
import { queryRows } from "./sql";
import { CASCADE_DELETE_TIMEOUT_MS, withTransaction } from "./transaction";

// Projects (issue 24 item 2, docs/decisions/036-projects.md). Every query names the user: someone else's project
// reads exactly like a missing one (404).

const projectSelect = {
  id: true,
  name: true,
  instructions: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface ProjectRow {
  id: string;
  name: string;
  instructions: string;
  createdAt: Date;
  updatedAt: Date;
}

const projectNotFound = () => new AppError("not_found", "This project does not exist or is not yours.");

export async function createProject(
  { userId, name, instructions = "" }: { userId: string; name: string; instructions?: string },
  { tx = db }: TxOption = {},
): Promise<ProjectRow> {
  const count = await tx.project.count({ where: { userId } });
  if (count >= MAX_PROJECTS) {
    throw new AppError("validation_failed", `You can have at most ${MAX_PROJECTS} projects.`);
  }
  return tx.project.create({ data: { userId, name, instructions }, select: projectSelect });
}

/**
 * The user's projects, most recently changed first, each with the count of its listed conversations (archived
 * ones are not listed) and `factCount`: the facts a deletion removes with it (its own, and those learned in its
 * conversations that were moved elsewhere since).
 */
export async function listProjectsByUserId({ userId }: { userId: string }, { tx = db }: TxOption = {}) {
  const [rows, learnedInside] = await Promise.all([
    tx.project.findMany({
      where: { userId },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: MAX_PROJECTS,
      select: {
        ...projectSelect,
        _count: {
          select: { sessions: { where: { temporary: false, archivedAt: null } }, memoryFacts: true },
        },
      },
    }),
    tx.memoryFact.findMany({
      where: { userId, sourceSession: { projectId: { not: null } } },
      select: { projectId: true, sourceSession: { select: { projectId: true } } },
    }),
  ]);
  const movedAway = new Map<string, number>();
  for (const f of learnedInside) {
    const home = f.sourceSession?.projectId;
    if (home && f.projectId !== home) movedAway.set(home, (movedAway.get(home) ?? 0) + 1);
  }
  return rows.map(({ _count, ...p }) => ({
    ...p,
    sessionCount: _count.sessions,
    factCount: _count.memoryFacts + (movedAway.get(p.id) ?? 0),
  }));
}

export async function getProjectForUserOrThrow(
  { projectId, userId }: { projectId: string; userId: string },
  { tx = db }: TxOption = {},
): Promise<ProjectRow> {
  const row = await tx.project.findFirst({ where: { id: projectId, userId }, select: projectSelect });
  if (!row) throw projectNotFound();
  return row;
}

export async function updateProjectForUser(
  {
    projectId,
    userId,
    name,
    instructions,
  }: { projectId: string; userId: string; name?: string | undefined; instructions?: string | undefined },
  { tx = db }: TxOption = {},
): Promise<ProjectRow> {
  const [row] = await tx.project.updateManyAndReturn({
    where: { id: projectId, userId },
    data: {
      ...(name !== undefined ? { name } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      updatedAt: new Date(),
    },
    select: projectSelect,
  });
  if (!row) throw projectNotFound();
  return row;
}

export interface ProjectDeletionReceipt {
  projectId: string;
  /** "delete": its conversations and facts went with it; "keep": they were moved out first. */
  mode: "delete" | "keep";
  /** Its files and their chunks go in either mode: a file belongs to its project only. */
  deleted: { Project: number; ProjectFile: number; ProjectFileChunk: number } & DeletedRows;
  /** Moved out of the project (mode "keep", or its facts with keepFacts): conversations now outside any project,
   * facts now global. */
  moved: { ChatSession: number; MemoryFact: number };
}

/**
 * Deletes one of the user's projects in one transaction. `keep`: its conversations leave the project and its facts
 * become global, then the project goes. Otherwise its conversations go (with everything in them, counted as a
 * conversation deletion counts) and so do its facts learned elsewhere and moved in. The receipt counts what went.
 */
export async function deleteProjectForUser({
  projectId,
  userId,
  keep,
  keepFacts = false,
}: {
  projectId: string;
  userId: string;
  keep: boolean;
  /** Delete the conversations but keep the project's facts: global, without a source where learned in them. */
  keepFacts?: boolean;
}): Promise<ProjectDeletionReceipt> {
  const result = await withTransaction(
    async (tx) => {
      await getProjectForUserOrThrow({ projectId, userId }, { tx });
      const deleted = { Project: 0, ProjectFile: 0, ProjectFileChunk: 0, ...noDeletedRows() };
      deleted.ProjectFileChunk = (await countFilesOfProjects({ projectId }, { tx })).ProjectFileChunk;
      deleted.ProjectFile = (await tx.projectFile.deleteMany({ where: { projectId, userId } })).count;
      const moved = { ChatSession: 0, MemoryFact: 0 };
      if (keep) {
        moved.ChatSession = (
          await tx.chatSession.updateMany({ where: { userId, projectId }, data: { projectId: null } })
        ).count;
        moved.MemoryFact = (
          await tx.memoryFact.updateMany({ where: { userId, projectId }, data: { projectId: null } })
        ).count;
      } else {
        const sessions = await tx.chatSession.findMany({
          where: { userId, projectId },
          select: { id: true },
        });
        if (keepFacts) {
          await keepFactsOfSessions({ userId, sessionIds: sessions.map((s) => s.id) }, { tx });
          moved.MemoryFact = (
            await tx.memoryFact.updateMany({ where: { userId, projectId }, data: { projectId: null } })
          ).count;
        }
        for (const { id } of sessions) {
          const rows = await countRowsOfSessions({ sessionId: id }, { tx });
          for (const key of Object.keys(rows) as (keyof typeof rows)[]) deleted[key] += rows[key];
        }
        deleted.ChatSession = (await tx.chatSession.deleteMany({ where: { userId, projectId } })).count;
        // Facts of the project learned outside it (moved in) are the project's too; those learned inside went above.
        deleted.MemoryFact += (await tx.memoryFact.deleteMany({ where: { userId, projectId } })).count;
      }
      deleted.Project = (await tx.project.deleteMany({ where: { id: projectId, userId } })).count;
      const receipt: ProjectDeletionReceipt = { projectId, mode: keep ? "keep" : "delete", deleted, moved };
      await tx.auditLog.create({
        data: {
          actorId: userId,
          action: "project.delete",
          targetType: "Project",
          targetId: projectId,
          details: { mode: receipt.mode, ...deleted, moved },
        },
      });
      return receipt;
    },
    { timeout: CASCADE_DELETE_TIMEOUT_MS },
  );
  return checkpointed(result, keep ? ["chunks"] : ["messages", "chunks"]);
}

const sessionNotFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");

/**
 * Moves, pins or archives one of the user's conversations. `projectId` must be one of the user's projects (else
 * 404, like a missing one); null moves it out. `pinned`/`archived` set or clear pinnedAt/archivedAt.
 */
export async function organizeSessionForUser(
  {
    sessionId,
    userId,
    projectId,
    pinned,
    archived,
  }: {
    sessionId: string;
    userId: string;
    projectId?: string | null | undefined;
    pinned?: boolean | undefined;
    archived?: boolean | undefined;
  },
  { tx = db }: TxOption = {},
): Promise<void> {
  if (projectId) await getProjectForUserOrThrow({ projectId, userId }, { tx });
  const now = new Date();
  const { count } = await tx.chatSession.updateMany({
    where: { id: sessionId, userId },
    data: {
      ...(projectId !== undefined ? { projectId } : {}),
      ...(pinned !== undefined ? { pinnedAt: pinned ? now : null } : {}),
      ...(archived !== undefined ? { archivedAt: archived ? now : null } : {}),
    },
  });
  if (count === 0) throw sessionNotFound();
}

/** Moves one of the user's facts into one of their projects, or to global (null); a "moved" version records it. */
export async function moveFactForUser({
  factId,
  userId,
  projectId,
}: {
  factId: string;
  userId: string;
  projectId: string | null;
}): Promise<void> {
  await withTransaction(async (tx) => {
    if (projectId) await getProjectForUserOrThrow({ projectId, userId }, { tx });
    const now = new Date();
    const [row] = await tx.memoryFact.updateManyAndReturn({
      where: { id: factId, userId },
      data: { projectId, updatedAt: now },
      select: { text: true },
    });
    if (!row) throw new AppError("not_found", "This memory does not exist or is not yours.");
    await recordFactVersion(tx, {
      factId,
      text: row.text,
      change: "moved",
      by: "user",
      sourceMessageId: null,
      changedAt: now,
    });
  });
}

/** The project of the conversation `sessionId` (null: none, or not the user's). */
export async function projectOfSession(
  { sessionId }: { sessionId: string },
  { tx = db }: TxOption = {},
): Promise<string | null> {
  // Written out (sql.ts): read before every turn and every extraction.
  const [row] = await queryRows<{ projectId: string | null }>(
    tx,
    `SELECT "projectId" FROM "ChatSession" WHERE "id" = ?`,
    [sessionId],
  );
  return row?.projectId ?? null;
}
