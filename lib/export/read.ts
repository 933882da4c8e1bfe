import "server-only";
import { readAttachmentParts } from "@/lib/attachments/parts";
import { attachmentStore } from "@/lib/attachments/store";
import { getUserInstructions } from "@/lib/db/instructions";
import {
  getLongTermMemoryForExport,
  getSessionForExport,
  listAttachmentsForExport,
  listMessagesPageForExport,
  listProjectFileChunksForExport,
  listProjectFilesForExport,
  listProjectsForExport,
  listSessionIdsForExport,
} from "@/lib/db/portability";
import { AppError } from "@/lib/errors";
import { isAttachmentRef } from "@/lib/memory/attachments";
import {
  attachmentLocalIdOf,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportAttachment,
  type ExportConversation,
  type ExportFact,
  type ExportFile,
  type ExportMessage,
  type ExportParts,
  type ExportProject,
  type ExportProjectFile,
  withAttachmentId,
} from "./format";
import { activePath } from "./tree";

// Reading what a user owns into the export format (docs/decisions/018-export-import.md). Every read names the
// user; a conversation is read whole (its messages in pages of MESSAGE_PAGE by seq), one at a time, so an account
// export holds one conversation in memory at once while it streams.

const MESSAGE_PAGE = 1000;

export type AttachmentMode = "reference" | "inline";
export type Branches = ExportConversation["branches"];

const notFound = () => new AppError("not_found", "This conversation does not exist or is not yours.");

interface MessageRow {
  id: string;
  parentId: string | null;
  seq: number;
  role: ExportMessage["role"];
  text: string;
  parts: unknown;
  toolCallId: string | null;
  status: ExportMessage["status"];
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  createdAt: Date;
}

async function readMessages(sessionId: string, userId: string): Promise<MessageRow[]> {
  const rows: MessageRow[] = [];
  for (;;) {
    const page = await listMessagesPageForExport({
      sessionId,
      userId,
      afterSeq: rows.at(-1)?.seq ?? 0,
      limit: MESSAGE_PAGE,
    });
    rows.push(...page);
    if (page.length < MESSAGE_PAGE) return rows;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Stored parts in the file's shape: only what the format knows, attachment ids replaced by local ones. */
function exportParts(parts: unknown, localOf: (id: string) => string): ExportParts | null {
  if (!isRecord(parts)) return null;
  const out: ExportParts = {};
  if (Array.isArray(parts.imageUrls)) {
    out.imageUrls = parts.imageUrls.flatMap((url) => {
      if (typeof url !== "string" || !isAttachmentRef(url)) return [];
      const id = attachmentLocalIdOf(url);
      return id === null ? [] : [withAttachmentId(url, localOf(id))];
    });
  }
  if (Array.isArray(parts.toolCalls)) {
    out.toolCalls = parts.toolCalls.flatMap((c) =>
      isRecord(c) && typeof c.id === "string" && typeof c.name === "string" && typeof c.arguments === "string"
        ? [{ id: c.id, name: c.name, arguments: c.arguments }]
        : [],
    );
  }
  if (Array.isArray(parts.attachments)) {
    out.attachments = readAttachmentParts(parts).map((p) => ({ ...p, id: localOf(p.id) }));
  }
  return out;
}

/**
 * One conversation of `userId` in the export format, or null when it is not theirs. `branches: "path"` keeps the
 * active branch only. Local ids: messages `m<seq>`, attachments `a<n>` in message order. With `projectLocalIdOf`
 * (an account export) it carries its place in the account: its project, pinned and archived.
 */
async function readConversation({
  userId,
  sessionId,
  localId,
  branches,
  attachments: mode,
  projectLocalIdOf,
}: {
  userId: string;
  sessionId: string;
  localId: string;
  branches: Branches;
  attachments: AttachmentMode;
  projectLocalIdOf?: (projectId: string) => string | null;
}): Promise<{ conversation: ExportConversation; seqById: Map<string, number> } | null> {
  const session = await getSessionForExport({ sessionId, userId });
  if (!session) return null;
  const all = await readMessages(sessionId, userId);
  const leafId = session.activeLeafId ?? all.at(-1)?.id ?? null;
  const rows = branches === "path" ? activePath(all, leafId) : all;
  const seqById = new Map(rows.map((m) => [m.id, m.seq]));
  const live = session.leaseUntil !== null && session.leaseUntil > new Date();

  const attachmentRows = await listAttachmentsForExport({ sessionId, userId });
  const rowById = new Map(attachmentRows.map((a) => [a.id, a]));

  // Every attachment a kept message names, in message order: a row when it still has one, else what its parts say.
  const localIds = new Map<string, string>();
  const attachments: ExportAttachment[] = [];
  const store = attachmentStore();
  for (const m of rows) {
    const named = readAttachmentParts(m.parts).map((p) => p.id);
    const own = attachmentRows.filter((a) => a.messageId === m.id).map((a) => a.id);
    for (const id of [...new Set([...named, ...own])]) {
      if (localIds.has(id)) continue;
      const local = `a${attachments.length + 1}`;
      localIds.set(id, local);
      const row = rowById.get(id);
      const part = readAttachmentParts(m.parts).find((p) => p.id === id);
      const entry: ExportAttachment = {
        localId: local,
        messageLocalId: `m${m.seq}`,
        sourceId: row ? row.id : null,
        kind: (row?.kind ?? part?.kind) === "image" ? "image" : "text",
        name: row?.name ?? part?.name ?? "file",
        mime: row?.mime ?? part?.mime ?? "application/octet-stream",
        bytes: row?.bytes ?? part?.bytes ?? 0,
        width: row?.width ?? part?.width ?? null,
        height: row?.height ?? part?.height ?? null,
        createdAt: (row?.createdAt ?? m.createdAt).toISOString(),
      };
      if (mode === "inline" && row) {
        const data = await store.get(row.id);
        if (data) entry.data = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
      }
      attachments.push(entry);
    }
  }
  // An image reference to an attachment nothing describes (not in parts, no row) is dropped below.
  const localOf = (id: string) => localIds.get(id) ?? "unknown";

  const messages: ExportMessage[] = rows.map((m) => ({
    localId: `m${m.seq}`,
    parentLocalId:
      m.parentId === null ? null : seqById.has(m.parentId) ? `m${seqById.get(m.parentId)}` : null,
    seq: m.seq,
    role: m.role,
    text: m.text,
    parts: exportParts(m.parts, localOf),
    toolCallId: m.toolCallId,
    status: m.status === "streaming" && !live ? "interrupted" : m.status,
    model: m.model,
    promptTokens: m.promptTokens,
    completionTokens: m.completionTokens,
    createdAt: m.createdAt.toISOString(),
  }));
  // Image references whose attachment is unknown everywhere are dropped rather than left dangling.
  const known = new Set(attachments.map((a) => a.localId));
  for (const m of messages) {
    if (m.parts?.imageUrls) {
      m.parts.imageUrls = m.parts.imageUrls.filter((url) => known.has(attachmentLocalIdOf(url) ?? ""));
    }
  }

  const leaf = leafId !== null && seqById.has(leafId) ? `m${seqById.get(leafId)}` : null;
  const conversation: ExportConversation = {
    localId,
    title: session.title.trim() || "Untitled",
    titleByUser: session.titleByUser,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    memorySettings: isRecord(session.memorySettings) ? session.memorySettings : null,
    memoryStartSeq: session.memoryStartSeq,
    branches,
    activeLeafLocalId: leaf ?? messages.at(-1)?.localId ?? null,
    systemPrompt: session.systemPrompt,
    ...(projectLocalIdOf
      ? {
          projectLocalId: session.projectId === null ? null : projectLocalIdOf(session.projectId),
          pinnedAt: session.pinnedAt?.toISOString() ?? null,
          archivedAt: session.archivedAt?.toISOString() ?? null,
        }
      : {}),
    messages,
    attachments,
  };
  return { conversation, seqById };
}

function fileHead(mode: AttachmentMode, exportedAt: Date) {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    attachments: mode,
  } as const;
}

/** One conversation as a whole export file; 404 when it is not the user's. */
export async function exportConversationForUser({
  userId,
  sessionId,
  branches,
  attachments,
}: {
  userId: string;
  sessionId: string;
  branches: Branches;
  attachments: AttachmentMode;
}): Promise<ExportFile> {
  const read = await readConversation({ userId, sessionId, localId: "c1", branches, attachments });
  if (!read) throw notFound();
  return { ...fileHead(attachments, new Date()), conversations: [read.conversation] };
}

/**
 * Everything the user owns as one export file, streamed: their projects with their files' passages (one file read
 * at a time), every conversation with all its branches (oldest first, one read at a time), then the long-term
 * memory switch and facts. Facts whose source was not exported (a conversation started meanwhile) are left out,
 * and a link to a fact left out is cut; a conversation or fact in a project made meanwhile is exported outside it.
 */
export function exportAccountStream({
  userId,
  attachments,
}: {
  userId: string;
  attachments: AttachmentMode;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = accountChunks({ userId, attachments });
  // Pulled: the next conversation is read only when the previous one was taken, so a slow download holds one
  // conversation in memory, and a cancelled one stops reading.
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (e) {
        console.error("[export] account export failed", e);
        controller.error(e);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** The account export's JSON text, piece by piece: the head, one conversation at a time, the facts. */
async function* accountChunks({
  userId,
  attachments,
}: {
  userId: string;
  attachments: AttachmentMode;
}): AsyncGenerator<string, void, undefined> {
  const head = JSON.stringify(fileHead(attachments, new Date()));
  yield `${head.slice(0, -1)},"projects":[`;
  const projects = new Map<string, string>();
  yield* projectChunks({ userId, projects });
  yield `],"conversations":[`;
  const projectLocalIdOf = (id: string) => projects.get(id) ?? null;
  const sessionIds = await listSessionIdsForExport({ userId });
  const exported = new Map<string, { localId: string; seqById: Map<string, number> }>();
  for (const id of sessionIds) {
    const localId = `c${exported.size + 1}`;
    const read = await readConversation({
      userId,
      sessionId: id,
      localId,
      branches: "tree",
      attachments,
      projectLocalIdOf,
    });
    if (!read) continue; // deleted meanwhile
    yield `${exported.size > 0 ? "," : ""}${JSON.stringify(read.conversation)}`;
    exported.set(id, { localId, seqById: read.seqById });
  }
  const memory = await readLongTermMemory({ userId, exported, projectLocalIdOf });
  const instructions = await getUserInstructions({ userId });
  yield `],"longTermMemory":${JSON.stringify(memory)},"instructions":${JSON.stringify(instructions)}}`;
}

/**
 * The user's projects as JSON text, each opened, then its files one at a time (a file's passages are read whole:
 * at most MAX_PROJECT_FILE_CHARS of text), then closed. Fills `projects` (id → local id `p<n>`); files are `pf<n>`.
 */
async function* projectChunks({
  userId,
  projects,
}: {
  userId: string;
  projects: Map<string, string>;
}): AsyncGenerator<string, void, undefined> {
  let files = 0;
  for (const p of await listProjectsForExport({ userId })) {
    const localId = `p${projects.size + 1}`;
    const project: ExportProject = {
      localId,
      name: p.name,
      instructions: p.instructions,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      files: [],
    };
    // `files` is the last key: the text ends with `[]}`, opened here and closed after the files.
    yield `${projects.size > 0 ? "," : ""}${JSON.stringify(project).slice(0, -2)}`;
    projects.set(p.id, localId);
    let first = true;
    for (const f of await listProjectFilesForExport({ userId, projectId: p.id })) {
      const chunks = await listProjectFileChunksForExport({ userId, fileId: f.id });
      if (chunks.length === 0) continue; // deleted meanwhile
      files += 1;
      const file: ExportProjectFile = {
        localId: `pf${files}`,
        name: f.name,
        mime: f.mime,
        bytes: f.bytes,
        createdAt: f.createdAt.toISOString(),
        chunks,
      };
      yield `${first ? "" : ","}${JSON.stringify(file)}`;
      first = false;
    }
    yield "]}";
  }
}

async function readLongTermMemory({
  userId,
  exported,
  projectLocalIdOf,
}: {
  userId: string;
  exported: Map<string, { localId: string; seqById: Map<string, number> }>;
  projectLocalIdOf: (projectId: string) => string | null;
}): Promise<NonNullable<ExportFile["longTermMemory"]>> {
  const { enabled, facts: rows } = await getLongTermMemoryForExport({ userId });
  type Kept = { f: (typeof rows)[number]; conversationLocalId: string | null; seq: number | null };
  const kept = rows.flatMap((f): Kept[] => {
    if (f.sourceSessionId === null || f.sourceMessageId === null) {
      return [{ f, conversationLocalId: null, seq: null }];
    }
    const source = exported.get(f.sourceSessionId);
    const seq = source?.seqById.get(f.sourceMessageId);
    return source && seq !== undefined ? [{ f, conversationLocalId: source.localId, seq }] : [];
  });
  const localIds = new Map(kept.map(({ f }, i) => [f.id, `f${i + 1}`]));
  const facts: ExportFact[] = kept.map(({ f, conversationLocalId, seq }) => ({
    localId: localIds.get(f.id) as string,
    text: f.text,
    subject: f.subject,
    conversationLocalId,
    messageLocalId: seq === null ? null : `m${seq}`,
    supersededByLocalId: f.supersededById === null ? null : (localIds.get(f.supersededById) ?? null),
    projectLocalId: f.projectId === null ? null : projectLocalIdOf(f.projectId),
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  }));
  return { enabled, facts };
}
