import { scheduleSummaryBacklog } from "@/lib/chat/summary-backlog";
import "server-only";
import { randomBytes } from "node:crypto";
import { ZodError } from "zod";
import { processImage } from "@/lib/attachments/image";
import { MAX_TEXT_BYTES } from "@/lib/attachments/limits";
import { sniff, textMimeFor } from "@/lib/attachments/sniff";
import { attachmentStore } from "@/lib/attachments/store";
import { ACCEPTED, cleanName } from "@/lib/attachments/upload";
import { scheduleEmbeddings } from "@/lib/chat/embedding-job";
import { getAttachmentsForUser } from "@/lib/db/attachments";
import type { Tx } from "@/lib/db/client";
import { fillEmptyInstructions } from "@/lib/db/instructions";
import {
  countImportsSinceForUser,
  countProjectsForImport,
  deleteImportedSessionsForUser,
  IMPORT_TRANSACTION,
  insertImportedConversation,
  insertImportedFacts,
  insertImportedProjects,
  listActiveFactsForImport,
  recordImport,
  supersedeFactsForUser,
} from "@/lib/db/portability";
import { insertProjectFile } from "@/lib/db/project-files";
import { scheduleSearchMerge } from "@/lib/db/search-merge";
import { withTransaction } from "@/lib/db/transaction";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { validateMemorySettings } from "@/lib/memory";
import { MAX_PROJECTS } from "@/lib/projects/limits";
import { findUnstorable, unstorableMessage } from "@/lib/security/text";
import {
  attachmentLocalIdOf,
  checkConsistency,
  type ExportAttachment,
  type ExportConversation,
  type ExportFile,
  type ExportParts,
  exportSchema,
  type FormatIssue,
  withAttachmentId,
} from "./format";

// POST /api/import (docs/decisions/018-export-import.md): an export file back into new conversations of the
// importing user. Everything is checked before anything is written; the rows are written in one transaction; the
// files of attachments go to the attachment store right after it commits, and if that fails the conversations are
// deleted again, so an import lands whole or not at all.

/** Imports per user and hour, counted from the audit log so every instance agrees. */
export const MAX_IMPORTS_PER_HOUR = 10;
/** Problems listed in a 422 (the first ones; a broken file can have thousands). */
const MAX_ISSUES = 20;

export interface ImportedConversation {
  id: string;
  title: string;
  messages: number;
}

export interface ImportResult {
  conversations: ImportedConversation[];
  counts: {
    conversations: number;
    messages: number;
    attachments: number;
    /** Attachments the file only named (exported without their files): kept as names, their images missing. */
    attachmentsMissing: number;
    facts: number;
    projects: number;
    /** Files of those projects (their passages indexed as an upload's). */
    projectFiles: number;
  };
}

/** A cuid-like id (letters and digits), made here so parent links can be remapped before anything is written. */
function newId(): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  return `c${[...randomBytes(24)].map((b) => alphabet[b % 36]).join("")}`;
}

function invalid(issues: FormatIssue[]): AppError {
  const details = issues.slice(0, MAX_ISSUES);
  const first = details[0];
  const message = first
    ? `This is not a valid Recall export: ${first.path ? `${first.path}: ` : ""}${first.message}`
    : "This is not a valid Recall export.";
  return new AppError("validation_failed", message, { details });
}

/** Parses and checks an export file: 400 when it is not JSON, 422 with the paths of what is wrong. */
function parseExportFile(bytes: Uint8Array): ExportFile {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError("bad_request", "This file is not JSON. Choose a file exported from Recall (.json).");
  }
  const unstorable = findUnstorable(json);
  if (unstorable) throw invalid([{ path: unstorable.path, message: unstorableMessage(unstorable) }]);
  let file: ExportFile;
  try {
    file = exportSchema.parse(json);
  } catch (e) {
    if (e instanceof ZodError) {
      throw invalid(e.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
    }
    throw e;
  }
  const issues = checkConsistency(file);
  file.conversations.forEach((c, ci) => {
    // A question is held to the limit of one typed now; answers and tool output have none of their own.
    c.messages.forEach((m, mi) => {
      if (m.role === "user" && m.text.length > env.CHAT_MAX_INPUT_CHARS)
        issues.push({
          path: `conversations.${ci}.messages.${mi}.text`,
          message: `A message can have at most ${env.CHAT_MAX_INPUT_CHARS} characters.`,
        });
    });
    if (c.memorySettings === null) return;
    const checked = validateMemorySettings(c.memorySettings);
    if (!checked.ok) {
      for (const e of checked.errors)
        issues.push({ path: `conversations.${ci}.memorySettings`, message: e.message });
    }
  });
  if (issues.length > 0) throw invalid(issues);
  return file;
}

/** A file ready for the store, decided before the transaction. */
interface PreparedAttachment {
  id: string;
  row: {
    kind: "image" | "text";
    name: string;
    mime: string;
    bytes: number;
    width: number | null;
    height: number | null;
  };
  blob: { data: Uint8Array; thumbnail: Uint8Array | null };
}

function atPath(e: unknown, path: string, name: string): unknown {
  if (!(e instanceof AppError)) return e;
  return new AppError(e.code, `${name}: ${e.message}`, { cause: e, details: { path } });
}

/** The same checks as an upload: the type from the bytes, the size limits, images decoded and encoded again. */
async function checkInlineFile(
  a: ExportAttachment,
): Promise<PreparedAttachment["row"] & { blob: PreparedAttachment["blob"] }> {
  const bytes = new Uint8Array(Buffer.from(a.data ?? "", "base64"));
  if (bytes.byteLength === 0) throw new AppError("validation_failed", "The file is empty.");
  const sniffed = sniff(bytes, a.name);
  if (sniffed.kind === "refused")
    throw new AppError("unsupported_media_type", `${sniffed.reason} ${ACCEPTED}`);
  if (sniffed.kind === "image") {
    if (bytes.byteLength > env.MAX_IMAGE_BYTES) {
      throw new AppError("payload_too_large", `The image is larger than ${env.MAX_IMAGE_BYTES} bytes.`);
    }
    const image = await processImage(bytes, sniffed.format);
    return {
      kind: "image",
      name: cleanName(a.name, sniffed.format),
      mime: image.mime,
      bytes: image.data.byteLength,
      width: image.width,
      height: image.height,
      blob: { data: image.data, thumbnail: image.thumbnail },
    };
  }
  if (bytes.byteLength > MAX_TEXT_BYTES) {
    throw new AppError("payload_too_large", `The text file is larger than ${MAX_TEXT_BYTES} bytes.`);
  }
  const data = new TextEncoder().encode(sniffed.text);
  return {
    kind: "text",
    name: cleanName(a.name, null),
    mime: sniffed.mime,
    bytes: data.byteLength,
    width: null,
    height: null,
    blob: { data, thumbnail: null },
  };
}

/**
 * Decides every attachment of the file: its bytes inline (checked like an upload), or a copy of the importing
 * user's own attachment the file names by `sourceId`, or — neither — a name only (null).
 */
async function prepareAttachments(
  userId: string,
  file: ExportFile,
): Promise<Map<ExportAttachment, PreparedAttachment | null>> {
  const prepared = new Map<ExportAttachment, PreparedAttachment | null>();
  const sourceIds = file.conversations.flatMap((c) =>
    c.attachments.flatMap((a) => (a.data === undefined && a.sourceId ? [a.sourceId] : [])),
  );
  const owned = new Map(
    (await getAttachmentsForUser({ userId, ids: [...new Set(sourceIds)] })).map((row) => [row.id, row]),
  );
  const store = attachmentStore();
  for (const [ci, c] of file.conversations.entries()) {
    for (const [ai, a] of c.attachments.entries()) {
      const path = `conversations.${ci}.attachments.${ai}`;
      if (a.data !== undefined) {
        try {
          const { blob, ...row } = await checkInlineFile(a);
          prepared.set(a, { id: newId(), row, blob });
        } catch (e) {
          throw atPath(e, path, a.name);
        }
        continue;
      }
      const source = a.sourceId ? owned.get(a.sourceId) : undefined;
      const data = source ? await store.get(source.id) : null;
      if (!source || !data) {
        prepared.set(a, null);
        continue;
      }
      prepared.set(a, {
        id: newId(),
        row: {
          kind: source.kind === "image" ? "image" : "text",
          name: source.name,
          mime: source.mime,
          bytes: source.bytes,
          width: source.width,
          height: source.height,
        },
        blob: { data, thumbnail: await store.getThumbnail(source.id) },
      });
    }
  }
  return prepared;
}

/** A message's parts with its attachments pointing at the new rows (or at a missing placeholder). */
function remapParts(
  parts: ExportParts | null,
  idOf: (localId: string) => { id: string; row: PreparedAttachment["row"] | null },
): object | undefined {
  if (parts === null) return undefined;
  const out: ExportParts = { ...parts };
  if (parts.imageUrls) {
    out.imageUrls = parts.imageUrls.map((url) =>
      withAttachmentId(url, idOf(attachmentLocalIdOf(url) ?? "").id),
    );
  }
  if (parts.attachments) {
    out.attachments = parts.attachments.map((p) => {
      const { id, row } = idOf(p.id);
      if (!row) return { ...p, id };
      const { width, height, ...rest } = { ...p, id, mime: row.mime, bytes: row.bytes };
      return row.width !== null && row.height !== null
        ? { ...rest, width: row.width, height: row.height }
        : rest;
    });
  }
  return out;
}

async function writeConversation(
  tx: Tx,
  {
    userId,
    conversation: c,
    prepared,
    projects,
    now,
  }: {
    userId: string;
    conversation: ExportConversation;
    prepared: Map<ExportAttachment, PreparedAttachment | null>;
    /** The file's project local ids → the projects this import created. */
    projects: Map<string, string>;
    now: Date;
  },
) {
  const sessionId = newId();
  const projectId = c.projectLocalId ? (projects.get(c.projectLocalId) ?? null) : null;
  const messageIds = new Map(c.messages.map((m) => [m.localId, newId()]));
  const attachmentIds = new Map(
    c.attachments.map((a, i) => {
      const p = prepared.get(a) ?? null;
      return [a.localId, { id: p?.id ?? `missing-${i + 1}`, row: p?.row ?? null }] as const;
    }),
  );
  const idOf = (local: string) => attachmentIds.get(local) ?? { id: "missing", row: null };
  const lastSeq = Math.max(0, ...c.messages.map((m) => m.seq));
  const settings = c.memorySettings === null ? null : validateMemorySettings(c.memorySettings);
  const files = c.attachments.flatMap((a) => {
    const p = prepared.get(a);
    return p ? [{ a, p }] : [];
  });
  await insertImportedConversation(
    {
      userId,
      session: {
        id: sessionId,
        title: c.title,
        titleByUser: c.titleByUser,
        createdAt: new Date(c.createdAt),
        // Imported now: retention counts idleness from the import, not from the original conversation.
        updatedAt: now,
        lastSeq,
        memoryStartSeq: Math.min(c.memoryStartSeq, lastSeq),
        memorySettings: settings?.ok ? settings.value : undefined,
        activeLeafId: c.activeLeafLocalId === null ? null : (messageIds.get(c.activeLeafLocalId) ?? null),
        activeLeafSeq: c.messages.find((m) => m.localId === c.activeLeafLocalId)?.seq ?? 0,
        systemPrompt: c.systemPrompt || null,
        importedAt: now,
        projectId,
        pinnedAt: c.pinnedAt ? new Date(c.pinnedAt) : null,
        archivedAt: c.archivedAt ? new Date(c.archivedAt) : null,
      },
      messages: c.messages.map((m) => ({
        id: messageIds.get(m.localId) as string,
        seq: m.seq,
        parentId: m.parentLocalId === null ? null : (messageIds.get(m.parentLocalId) ?? null),
        role: m.role,
        text: m.text,
        parts: remapParts(m.parts, idOf),
        toolCallId: m.toolCallId,
        // Nothing is writing an imported answer.
        status: m.status === "streaming" ? "interrupted" : m.status,
        model: m.model,
        promptTokens: m.promptTokens,
        completionTokens: m.completionTokens,
        createdAt: new Date(m.createdAt),
      })),
      attachments: files.map(({ a, p }) => ({
        id: p.id,
        messageId: messageIds.get(a.messageLocalId) as string,
        ...p.row,
        createdAt: new Date(a.createdAt),
      })),
    },
    { tx },
  );
  return {
    sessionId,
    messageIds,
    projectId,
    files: files.length,
    missing: c.attachments.length - files.length,
  };
}

/**
 * The file's projects as new projects of the user (new ids; name, instructions and times kept) with their files,
 * each written and indexed by insertProjectFile exactly as an upload writes it — the passages as the file holds
 * them, the name cleaned and the type named as an upload would. Refused whole when the user would have more than
 * MAX_PROJECTS. Returns the file's local ids → the new projects.
 */
async function writeProjects(
  tx: Tx,
  { userId, file }: { userId: string; file: ExportFile },
): Promise<{ ids: Map<string, string>; files: number }> {
  const projects = file.projects ?? [];
  const ids = new Map(projects.map((p) => [p.localId, newId()]));
  if (projects.length === 0) return { ids, files: 0 };
  const have = await countProjectsForImport({ userId }, { tx });
  if (have + projects.length > MAX_PROJECTS) {
    throw new AppError(
      "validation_failed",
      `This file has ${projects.length} projects and you have ${have}; an account can have at most ${MAX_PROJECTS}.`,
      { details: [{ path: "projects", message: `at most ${MAX_PROJECTS - have} more projects fit` }] },
    );
  }
  await insertImportedProjects(
    {
      userId,
      projects: projects.map((p) => ({
        id: ids.get(p.localId) as string,
        name: p.name,
        instructions: p.instructions,
        createdAt: new Date(p.createdAt),
        updatedAt: new Date(p.updatedAt),
      })),
    },
    { tx },
  );
  let files = 0;
  for (const p of projects) {
    for (const f of p.files) {
      const name = cleanName(f.name, null);
      await insertProjectFile(
        {
          userId,
          projectId: ids.get(p.localId) as string,
          name,
          mime: f.mime === "application/pdf" ? f.mime : textMimeFor(name),
          bytes: f.bytes,
          chunks: f.chunks.map((c) => c.text),
          createdAt: new Date(f.createdAt),
        },
        { tx },
      );
      files += 1;
    }
  }
  return { ids, files };
}

/** Facts with their sources and links remapped. An imported fact the user already knows (same text or subject) is
 * imported as replaced by theirs: what the account knows now wins over an old file. */
async function writeFacts(
  tx: Tx,
  {
    userId,
    file,
    written,
    projects,
  }: {
    userId: string;
    file: ExportFile;
    written: Map<string, { sessionId: string; messageIds: Map<string, string>; projectId: string | null }>;
    projects: Map<string, string>;
  },
): Promise<number> {
  const facts = file.longTermMemory?.facts ?? [];
  if (facts.length === 0) return 0;
  const ids = new Map(facts.map((f) => [f.localId, newId()]));
  const current = await listActiveFactsForImport({ userId }, { tx });
  const rows = facts.map((f) => {
    const source = f.conversationLocalId === null ? undefined : written.get(f.conversationLocalId);
    return {
      id: ids.get(f.localId) as string,
      text: f.text,
      subject: f.subject,
      sourceSessionId: source?.sessionId ?? null,
      sourceMessageId: (f.messageLocalId !== null && source?.messageIds.get(f.messageLocalId)) || null,
      // Absent (older files): the project of the conversation it was learned in, as when it was stored.
      projectId:
        f.projectLocalId === undefined
          ? (source?.projectId ?? null)
          : f.projectLocalId === null
            ? null
            : (projects.get(f.projectLocalId) ?? null),
      createdAt: new Date(f.createdAt),
      updatedAt: new Date(f.updatedAt),
    };
  });
  await insertImportedFacts({ userId, facts: rows }, { tx });
  const replacedBy = new Map<string, string[]>();
  for (const [i, f] of facts.entries()) {
    // The account's facts are global or in projects other than the new ones: only a global fact meets them.
    const by =
      f.supersededByLocalId !== null
        ? ids.get(f.supersededByLocalId)
        : rows[i]?.projectId === null
          ? current.find((k) => k.text === f.text || (f.subject !== null && k.subject === f.subject))?.id
          : undefined;
    if (by) replacedBy.set(by, [...(replacedBy.get(by) ?? []), ids.get(f.localId) as string]);
  }
  for (const [by, replaced] of replacedBy) {
    await supersedeFactsForUser({ userId, ids: replaced, supersededById: by }, { tx });
  }
  return facts.length;
}

async function assertImportAllowed(userId: string) {
  const recent = await countImportsSinceForUser({ userId, since: new Date(Date.now() - 3600_000) });
  if (recent >= MAX_IMPORTS_PER_HOUR) {
    throw new AppError(
      "rate_limited",
      `You can import at most ${MAX_IMPORTS_PER_HOUR} files an hour. Try again later.`,
      {
        details: { retryAfterSeconds: 600 },
      },
    );
  }
}

/**
 * Imports an export file (its bytes, already bounded by MAX_IMPORT_BYTES) into new conversations of `userId`: new
 * ids, parent links and the active leaf remapped, seqs kept, memory rebuilt from the history on the next turn
 * (no snapshot is imported), facts with their sources remapped, the file's projects (with their indexed files)
 * created new, conversations and facts placed in them. One audit entry with counts.
 */
export async function importExportFile({
  userId,
  bytes,
}: {
  userId: string;
  bytes: Uint8Array;
}): Promise<ImportResult> {
  await assertImportAllowed(userId);
  const file = parseExportFile(bytes);
  const prepared = await prepareAttachments(userId, file);
  const now = new Date();
  const messages = file.conversations.reduce((n, c) => n + c.messages.length, 0);

  const result = await withTransaction(async (tx) => {
    const projects = await writeProjects(tx, { userId, file });
    const written = new Map<
      string,
      { sessionId: string; messageIds: Map<string, string>; projectId: string | null }
    >();
    const conversations: ImportedConversation[] = [];
    let files = 0;
    let missing = 0;
    for (const conversation of file.conversations) {
      const w = await writeConversation(tx, { userId, conversation, prepared, projects: projects.ids, now });
      written.set(conversation.localId, w);
      conversations.push({
        id: w.sessionId,
        title: conversation.title,
        messages: conversation.messages.length,
      });
      files += w.files;
      missing += w.missing;
    }
    const facts = await writeFacts(tx, { userId, file, written, projects: projects.ids });
    if (file.instructions) await fillEmptyInstructions({ userId, instructions: file.instructions }, { tx });
    const counts = {
      conversations: conversations.length,
      messages,
      attachments: files,
      attachmentsMissing: missing,
      facts,
      projects: projects.ids.size,
      projectFiles: projects.files,
    };
    await recordImport({ userId, counts }, { tx });
    return { conversations, counts };
  }, IMPORT_TRANSACTION);

  const store = attachmentStore();
  try {
    for (const p of prepared.values()) if (p) await store.put(p.id, p.blob);
  } catch (e) {
    await deleteImportedSessionsForUser({ userId, sessionIds: result.conversations.map((c) => c.id) });
    throw e;
  }
  // Recall's embeddings of the imported messages, off the request (a no-op without EMBEDDINGS_MODEL), and a merge
  // step of the search index the import added a segment to.
  scheduleEmbeddings();
  scheduleSearchMerge();
  // Conversations imported under the summary policy are summarized from their start, off the request.
  for (const c of result.conversations) scheduleSummaryBacklog({ sessionId: c.id });
  return result;
}
