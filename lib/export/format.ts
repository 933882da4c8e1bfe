import { z } from "zod";
import { MAX_FACT_CHARS } from "@/lib/api/memory-schemas";
import { projectInstructionsSchema, projectNameSchema } from "@/lib/api/project-schemas";
import { MAX_NAME_CHARS } from "@/lib/attachments/limits";
import { ATTACHMENT_REF_PREFIX } from "@/lib/memory/attachments";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory/instructions";
import { CHUNK_CHARS } from "@/lib/projects/chunk";
import { MAX_FILES_PER_PROJECT, MAX_PROJECT_FILE_CHARS, MAX_PROJECTS } from "@/lib/projects/limits";

// The export file (docs/decisions/018-export-import.md): `recall-export`, version 1. Pure — no database, no
// Next.js — so the format is unit-tested on its own. Ids inside a file are local ("c1", "m7", "a2", "f3", "p1"): the
// rows' real ids never leave the server, except an attachment's `sourceId`, which lets an import into the same
// account copy a file it still has.

export const EXPORT_FORMAT = "recall-export";
export const EXPORT_VERSION = 1;

const LOCAL_ID = /^[A-Za-z0-9_-]{1,64}$/;
const localId = z.string().regex(LOCAL_ID, "must be a local id (letters, digits, - and _; at most 64)");
const date = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" });
const count = z.number().int().min(0).nullable();

/** A text inside a file: bounded so that one field cannot hold the whole import. */
const MAX_TEXT_CHARS = 2_000_000;
/** An instruction text: the limit an edit has (docs/decisions/028-instructions.md). */
const instructionText = z
  .string()
  .trim()
  .max(MAX_INSTRUCTION_CHARS, `An instruction can have at most ${MAX_INSTRUCTION_CHARS} characters.`);

/** A fact's subject as lib/memory makes it (normalizeSubject keeps 80 characters). */
const MAX_SUBJECT_CHARS = 80;

const toolCallSchema = z.object({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  arguments: z.string().max(MAX_TEXT_CHARS),
});

const attachmentPartSchema = z.object({
  id: localId,
  kind: z.enum(["image", "text"]),
  name: z.string().min(1).max(MAX_NAME_CHARS),
  mime: z.string().min(1).max(200),
  bytes: z.number().int().min(0),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  text: z.string().max(MAX_TEXT_CHARS).optional(),
});

/** `attachment:<local id>[?w=&h=]`: images point at the conversation's attachments, nothing else. */
const imageRef = z
  .string()
  .max(300)
  .refine(
    (url) => url.startsWith(ATTACHMENT_REF_PREFIX),
    `must be an attachment reference (${ATTACHMENT_REF_PREFIX}<local id>)`,
  );

/** ChatMessage.parts as the file carries them; unknown keys are dropped. */
export const partsSchema = z.object({
  imageUrls: z.array(imageRef).max(16).optional(),
  toolCalls: z.array(toolCallSchema).max(64).optional(),
  attachments: z.array(attachmentPartSchema).max(16).optional(),
});
export type ExportParts = z.infer<typeof partsSchema>;

export const messageSchema = z.object({
  localId,
  parentLocalId: localId.nullable(),
  seq: z.number().int().positive(),
  role: z.enum(["system", "user", "assistant", "tool"]),
  text: z.string().max(MAX_TEXT_CHARS),
  parts: partsSchema.nullable(),
  toolCallId: z.string().max(200).nullable(),
  status: z.enum(["complete", "streaming", "interrupted", "failed"]),
  model: z.string().max(200).nullable(),
  promptTokens: count,
  completionTokens: count,
  createdAt: date,
});
export type ExportMessage = z.infer<typeof messageSchema>;

export const attachmentSchema = z.object({
  localId,
  messageLocalId: localId,
  /** The attachment's id where it was exported (an import into the same account may copy it from there). */
  sourceId: z.string().max(64).nullable(),
  kind: z.enum(["image", "text"]),
  name: z.string().min(1).max(MAX_NAME_CHARS),
  mime: z.string().min(1).max(200),
  bytes: z.number().int().min(0),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  createdAt: date,
  /** The stored file, base64 — only in exports made with `attachments=inline`. */
  data: z.base64({ message: "must be base64" }).optional(),
});
export type ExportAttachment = z.infer<typeof attachmentSchema>;

export const conversationSchema = z.object({
  localId,
  title: z.string().trim().min(1).max(200),
  titleByUser: z.boolean(),
  createdAt: date,
  updatedAt: date,
  /** Stored memory settings over the defaults (null: the defaults); checked by lib/memory on import. */
  memorySettings: z.record(z.string(), z.unknown()).nullable(),
  memoryStartSeq: z.number().int().min(0),
  /** "tree": every branch; "path": the active branch only. */
  branches: z.enum(["tree", "path"]),
  activeLeafLocalId: localId.nullable(),
  /** The conversation's own system prompt (null or absent: none). */
  systemPrompt: instructionText.nullable().optional(),
  /** The project it is in (null or absent: none); account exports only. */
  projectLocalId: localId.nullable().optional(),
  /** Pinned and archived (null or absent: not); account exports only. */
  pinnedAt: date.nullable().optional(),
  archivedAt: date.nullable().optional(),
  messages: z.array(messageSchema),
  attachments: z.array(attachmentSchema),
});
export type ExportConversation = z.infer<typeof conversationSchema>;

export const factSchema = z.object({
  localId,
  // The limits of a fact everywhere else (the remember tool, an edit): an import is not a way around them.
  text: z
    .string()
    .trim()
    .min(1)
    .max(MAX_FACT_CHARS, `A memory can have at most ${MAX_FACT_CHARS} characters.`),
  subject: z.string().max(MAX_SUBJECT_CHARS).nullable(),
  // Both null: a fact kept when its conversation was deleted (decision 038).
  conversationLocalId: localId.nullable(),
  messageLocalId: localId.nullable(),
  supersededByLocalId: localId.nullable(),
  /** The project it belongs to (null: global; absent: its conversation's project, as a fact learned there). */
  projectLocalId: localId.nullable().optional(),
  createdAt: date,
  updatedAt: date,
});
export type ExportFact = z.infer<typeof factSchema>;

/**
 * Chunks a file may have: an upload packs passages of at most CHUNK_CHARS greedily, and a Markdown heading starts a
 * new one only after 200 characters, so MAX_PROJECT_FILE_CHARS of text is never more than this many.
 */
const MAX_CHUNKS_PER_FILE = MAX_PROJECT_FILE_CHARS / 200;

/** A project file as it is stored: its text, cut into the passages recall retrieves (position 1, 2, 3…). */
export const projectFileSchema = z.object({
  localId,
  name: z.string().min(1).max(MAX_NAME_CHARS),
  mime: z.string().min(1).max(200),
  bytes: z.number().int().min(0),
  createdAt: date,
  chunks: z
    .array(
      z.object({
        position: z.number().int().positive(),
        text: z
          .string()
          .min(1)
          .max(CHUNK_CHARS, `A passage of a project file has at most ${CHUNK_CHARS} characters.`),
      }),
    )
    .min(1, "A project file has at least one passage.")
    .max(MAX_CHUNKS_PER_FILE),
});
export type ExportProjectFile = z.infer<typeof projectFileSchema>;

/** A project (account exports only): the limits of the projects API and of an upload hold here too. */
export const projectSchema = z.object({
  localId,
  name: projectNameSchema,
  instructions: projectInstructionsSchema,
  createdAt: date,
  updatedAt: date,
  files: z
    .array(projectFileSchema)
    .max(MAX_FILES_PER_PROJECT, `A project can hold at most ${MAX_FILES_PER_PROJECT} files.`),
});
export type ExportProject = z.infer<typeof projectSchema>;

export const exportSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { message: `format must be "${EXPORT_FORMAT}"` }),
  version: z.literal(EXPORT_VERSION, {
    error: (issue) =>
      `This file is version ${String(issue.input)}; this server reads version ${EXPORT_VERSION} files.`,
  }),
  exportedAt: date,
  attachments: z.enum(["reference", "inline"]),
  /** The account's projects (account exports only; absent in older files and single-conversation exports). */
  projects: z
    .array(projectSchema)
    .max(MAX_PROJECTS, `An account can have at most ${MAX_PROJECTS} projects.`)
    .optional(),
  conversations: z.array(conversationSchema).max(10_000),
  longTermMemory: z
    .object({
      /** The account's switch when it was exported (informational: an import never changes settings). */
      enabled: z.boolean(),
      facts: z.array(factSchema).max(100_000),
    })
    .optional(),
  /** The account's instructions (account exports only); an import fills only those the account has not set. */
  instructions: z.object({ aboutMe: instructionText, howToAnswer: instructionText }).optional(),
});
export type ExportFile = z.infer<typeof exportSchema>;

export interface FormatIssue {
  path: string;
  message: string;
}

/**
 * What zod cannot say about a file: every local id points at something that exists in the file, the message tree
 * is a tree (a parent comes before its child, by seq), attachment references resolve, facts name messages of
 * their conversation, conversations and facts name projects of the file, and a project file's passages are in
 * order and within an upload's text limit. Returns every problem found (empty: the file is consistent).
 */
export function checkConsistency(file: ExportFile): FormatIssue[] {
  const issues: FormatIssue[] = [];
  const say = (path: (string | number)[], message: string) => issues.push({ path: path.join("."), message });
  const projects = new Set<string>();
  const projectFiles = new Set<string>();
  file.projects?.forEach((p, pi) => {
    const at = ["projects", pi];
    if (projects.has(p.localId)) say([...at, "localId"], `duplicate project id ${p.localId}`);
    projects.add(p.localId);
    p.files.forEach((f, fi) => {
      const where = [...at, "files", fi];
      if (projectFiles.has(f.localId)) say([...where, "localId"], `duplicate project file id ${f.localId}`);
      projectFiles.add(f.localId);
      const misplaced = f.chunks.findIndex((c, ci) => c.position !== ci + 1);
      if (misplaced !== -1) {
        say(
          [...where, "chunks", misplaced, "position"],
          `must be ${misplaced + 1}: passages are numbered 1, 2, 3… in order`,
        );
      }
      const chars = f.chunks.reduce((n, c) => n + c.text.length, 0);
      if (chars > MAX_PROJECT_FILE_CHARS) {
        say(
          [...where, "chunks"],
          `A project file holds at most ${MAX_PROJECT_FILE_CHARS} characters of text.`,
        );
      }
    });
  });
  const projectRef = (path: (string | number)[], id: string | null | undefined) => {
    if (id !== null && id !== undefined && !projects.has(id)) say(path, `no project ${id} here`);
  };
  const conversations = new Map<string, ExportConversation>();
  file.conversations.forEach((c, ci) => {
    const at = ["conversations", ci];
    if (conversations.has(c.localId)) say([...at, "localId"], `duplicate conversation id ${c.localId}`);
    conversations.set(c.localId, c);
    projectRef([...at, "projectLocalId"], c.projectLocalId);
    const bySeq = new Set<number>();
    const messages = new Map<string, ExportMessage>();
    c.messages.forEach((m, mi) => {
      if (messages.has(m.localId))
        say([...at, "messages", mi, "localId"], `duplicate message id ${m.localId}`);
      if (bySeq.has(m.seq)) say([...at, "messages", mi, "seq"], `duplicate seq ${m.seq}`);
      messages.set(m.localId, m);
      bySeq.add(m.seq);
    });
    c.messages.forEach((m, mi) => {
      if (m.parentLocalId === null) return;
      const parent = messages.get(m.parentLocalId);
      if (!parent) say([...at, "messages", mi, "parentLocalId"], `no message ${m.parentLocalId} here`);
      else if (parent.seq >= m.seq) {
        say([...at, "messages", mi, "parentLocalId"], "a parent must have a smaller seq than its child");
      }
    });
    if (c.activeLeafLocalId === null) {
      if (c.messages.length > 0)
        say([...at, "activeLeafLocalId"], "a conversation with messages needs its active leaf");
    } else if (!messages.has(c.activeLeafLocalId)) {
      say([...at, "activeLeafLocalId"], `no message ${c.activeLeafLocalId} here`);
    }
    const attachments = new Set<string>();
    c.attachments.forEach((a, ai) => {
      if (attachments.has(a.localId))
        say([...at, "attachments", ai, "localId"], `duplicate attachment id ${a.localId}`);
      attachments.add(a.localId);
      if (!messages.has(a.messageLocalId)) {
        say([...at, "attachments", ai, "messageLocalId"], `no message ${a.messageLocalId} here`);
      }
    });
    c.messages.forEach((m, mi) => {
      const where = [...at, "messages", mi, "parts"];
      m.parts?.imageUrls?.forEach((url, ui) => {
        const ref = attachmentLocalIdOf(url);
        if (ref === null || !attachments.has(ref))
          say([...where, "imageUrls", ui], "not an attachment of this conversation");
      });
      m.parts?.attachments?.forEach((p, pi) => {
        if (!attachments.has(p.id))
          say([...where, "attachments", pi, "id"], "not an attachment of this conversation");
      });
    });
  });
  const facts = new Set(file.longTermMemory?.facts.map((f) => f.localId));
  file.longTermMemory?.facts.forEach((f, fi) => {
    const at = ["longTermMemory", "facts", fi];
    projectRef([...at, "projectLocalId"], f.projectLocalId);
    const c = f.conversationLocalId === null ? null : conversations.get(f.conversationLocalId);
    if (f.conversationLocalId === null) {
      if (f.messageLocalId !== null)
        say([...at, "messageLocalId"], "a fact without a conversation has no message");
    } else if (!c) say([...at, "conversationLocalId"], `no conversation ${f.conversationLocalId} here`);
    else if (!c.messages.some((m) => m.localId === f.messageLocalId)) {
      say(
        [...at, "messageLocalId"],
        `no message ${f.messageLocalId} in conversation ${f.conversationLocalId}`,
      );
    }
    if (
      f.supersededByLocalId !== null &&
      (!facts.has(f.supersededByLocalId) || f.supersededByLocalId === f.localId)
    ) {
      say([...at, "supersededByLocalId"], `no other fact ${f.supersededByLocalId} here`);
    }
  });
  if (file.longTermMemory && facts.size !== file.longTermMemory.facts.length) {
    say(["longTermMemory", "facts"], "duplicate fact ids");
  }
  for (const loop of supersedeLoops(file.longTermMemory?.facts ?? [])) {
    say(
      ["longTermMemory", "facts", loop.index, "supersededByLocalId"],
      `the facts ${loop.ids.join(" → ")} replace each other in a loop`,
    );
  }
  return issues;
}

/**
 * The loops among `supersededByLocalId` links (a replaced fact must lead to an active one), each once: where it is
 * first entered (the fact's index in the list) and its ids, back to the first. Each fact is visited once.
 */
function supersedeLoops(facts: readonly ExportFact[]): { index: number; ids: string[] }[] {
  const indexOf = new Map(facts.map((f, i) => [f.localId, i]));
  const done = new Set<string>();
  const loops: { index: number; ids: string[] }[] = [];
  for (const start of facts) {
    const trail: string[] = [];
    const onTrail = new Set<string>();
    let at: string | null = start.localId;
    while (at !== null && !done.has(at) && !onTrail.has(at)) {
      trail.push(at);
      onTrail.add(at);
      const i = indexOf.get(at);
      at = i === undefined ? null : (facts[i]?.supersededByLocalId ?? null);
    }
    if (at !== null && onTrail.has(at) && at !== trail.at(-1)) {
      const ids = trail.slice(trail.indexOf(at));
      loops.push({ index: indexOf.get(at) ?? 0, ids: [...ids, at] });
    }
    for (const id of trail) done.add(id);
  }
  return loops;
}

/** The local id an `attachment:<id>[?…]` reference names, or null. */
export function attachmentLocalIdOf(url: string): string | null {
  if (!url.startsWith(ATTACHMENT_REF_PREFIX)) return null;
  const id = url.slice(ATTACHMENT_REF_PREFIX.length).split("?")[0] ?? "";
  return LOCAL_ID.test(id) ? id : null;
}

/** The same reference pointing at `id` instead (the size query is kept). */
export function withAttachmentId(url: string, id: string): string {
  const query = url.indexOf("?");
  return `${ATTACHMENT_REF_PREFIX}${id}${query === -1 ? "" : url.slice(query)}`;
}
