// The browser's one way to call Recall's API: every failure becomes a RequestError with a message a person can
// read — the server's own `{ error: { code, message } }`, or a plain sentence when the server could not be reached
// (never the browser's "Failed to fetch"). SWR fetchers and mutations both go through `request`.

import type { ProjectFileView } from "./types";

const UNREACHABLE = "Can't reach Recall. Check your connection and try again.";

export class RequestError extends Error {
  constructor(
    message: string,
    /** The HTTP status; 0 when no response arrived (offline, server down, connection refused). */
    readonly status: number,
    readonly code?: string,
    /** The message and code are the server's own `{ error }`, not a stand-in. */
    readonly fromServer = false,
    /** The server's `error.details` (a validation error's problems), as sent. */
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "RequestError";
  }

  /** The server answered and refused: the request was understood and nothing was stored. */
  get rejected(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** The RequestError for a refused response: `body` is its parsed JSON (null when it was not JSON). */
export function refusalOf(status: number, body: unknown): RequestError {
  const error = (body as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
  return new RequestError(
    error?.message ?? `Request failed (${status}).`,
    status,
    error?.code,
    Boolean(error),
    error?.details,
  );
}

async function readError(res: Response): Promise<RequestError> {
  return refusalOf(res.status, await res.json().catch(() => null));
}

export function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/**
 * fetch that throws a RequestError unless the response is 2xx; `unreachable` is the message when no response
 * arrives. An abort is rethrown as is, so callers can tell "stopped" from "failed".
 */
export async function request(
  url: string,
  init?: RequestInit,
  unreachable: string = UNREACHABLE,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new RequestError(unreachable, 0);
  }
  if (!res.ok) throw await readError(res);
  return res;
}

/**
 * POST `body` through XMLHttpRequest, the one browser API that reports how much of a request body has been sent
 * (`onProgress`, 0…1). Resolves with the JSON answer and fails like `request`: a RequestError, or an AbortError
 * once `signal` aborts.
 */
export function upload<T>(
  url: string,
  body: XMLHttpRequestBodyInit,
  {
    contentType,
    onProgress,
    signal,
  }: { contentType?: string; onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    if (contentType) xhr.setRequestHeader("content-type", contentType);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a proxy's error page; the status speaks.
      }
      if (xhr.status >= 200 && xhr.status < 300 && parsed !== null) resolve(parsed as T);
      else reject(refusalOf(xhr.status, parsed));
    };
    xhr.onerror = () => reject(new RequestError(UNREACHABLE, 0));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** The SWR fetcher: GET `url` as JSON. */
export async function getJson<T>(url: string): Promise<T> {
  return (await (await request(url)).json()) as T;
}

/** A JSON request (POST/PATCH/DELETE) whose JSON answer is returned. */
export async function sendJson<T>(url: string, method: string, body?: unknown): Promise<T> {
  const res = await request(url, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

/** The server's own `{ code, message }` carried by a RequestError, or null (for `useErrorText`'s fallback). */
export function serverErrorOf(e: unknown): { code?: string; message: string } | null {
  return e instanceof RequestError && e.fromServer ? { code: e.code, message: e.message } : null;
}

/** A refusal from the server (as opposed to no answer at all). */
export const answered = (e: unknown): e is RequestError => e instanceof RequestError && e.status > 0;

/** One page of history older than the first message shown; throws a RequestError. */
export async function fetchOlderMessages<M>(url: string): Promise<{ messages: M[]; hasMore: boolean }> {
  return getJson<{ messages: M[]; hasMore: boolean }>(url);
}

/** The tool servers of a conversation: each enabled server and whether it is on here. */
export interface SessionToolsView {
  servers: Record<string, boolean>;
  available: { id: string; name: string }[];
}

const sessionToolsUrl = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}/tools`;

export const getSessionTools = (sessionId: string) => getJson<SessionToolsView>(sessionToolsUrl(sessionId));

/** Switches one server on or off in the conversation (from its next answer); returns the new view. */
export const switchSessionTool = (sessionId: string, serverId: string, on: boolean) =>
  sendJson<SessionToolsView>(sessionToolsUrl(sessionId), "PATCH", { servers: { [serverId]: on } });

/** A model a conversation may pick (GET /api/models). */
export interface PickableModel {
  id: string;
  name: string;
  provider: string;
  contextTokens: number;
  vision: boolean;
  tools: boolean;
}

/** The enabled models; throws a RequestError. */
export function listPickableModels(): Promise<PickableModel[]> {
  return getJson<PickableModel[]>("/api/models");
}

/** The conversation's picked model id (null: the default); throws a RequestError. */
export async function getSessionModel(sessionId: string): Promise<string | null> {
  const body = await getJson<{ session: { model: string | null } }>(
    `/api/sessions/${encodeURIComponent(sessionId)}?limit=1`,
  );
  return body.session.model;
}

/** Picks the conversation's model (422 for an unknown or disabled one); throws a RequestError. */
export async function setSessionModel(sessionId: string, model: string | null): Promise<void> {
  await sendJson(`/api/sessions/${encodeURIComponent(sessionId)}`, "PATCH", { model });
}

/** A model as the admin sees it (GET /api/admin/models): never the key, only whether one is stored. */
export interface AdminModel extends PickableModel {
  baseUrl: string | null;
  modelId: string;
  enabled: boolean;
  hasApiKey: boolean;
  readOnly: boolean;
}

/** Adds (no id) or changes a model; throws a RequestError. */
export async function saveAdminModel(id: string | null, body: Record<string, unknown>): Promise<AdminModel> {
  const url = id ? `/api/admin/models/${encodeURIComponent(id)}` : "/api/admin/models";
  return (await sendJson<{ model: AdminModel }>(url, id ? "PATCH" : "POST", body)).model;
}

/** Deletes a model; throws a RequestError. */
export async function deleteAdminModel(id: string): Promise<void> {
  await request(`/api/admin/models/${encodeURIComponent(id)}`, { method: "DELETE" });
}
/** One version of a long-term fact (GET /api/memories/:id), oldest first. */
export interface FactVersionView {
  text: string;
  changedAt: string;
  change: "created" | "edited" | "replaced" | "accepted" | "moved";
  by: "user" | "model";
  sourceMessageId: string | null;
}

const memoryUrl = (id: string) => `/api/memories/${encodeURIComponent(id)}`;

/** A fact with its history and expiry. */
export const getMemoryHistory = (id: string) =>
  getJson<{
    memory: {
      id: string;
      expiresAt: string | null;
      sourceSessionId: string | null;
      history: FactVersionView[];
    };
  }>(memoryUrl(id));

/** Sets (ISO date and time) or clears (null) when a fact expires. */
export const setMemoryExpiry = (id: string, expiresAt: string | null) =>
  sendJson<{ memory: { expiresAt: string | null } }>(memoryUrl(id), "PATCH", { expiresAt });
/** The user's instructions (Settings → Instructions); "" when unset. */
export interface InstructionsView {
  aboutMe: string;
  howToAnswer: string;
}

export const saveInstructions = (instructions: InstructionsView) =>
  sendJson<InstructionsView>("/api/me/instructions", "PATCH", instructions);

const sessionUrl = (sessionId: string) => `/api/sessions/${encodeURIComponent(sessionId)}`;

/** The conversation's own system prompt (null: none). */
export const getSystemPrompt = async (sessionId: string) =>
  (await getJson<{ session: { systemPrompt: string | null } }>(`${sessionUrl(sessionId)}?limit=1`)).session
    .systemPrompt;

/** Sets (or with null or "" clears) the conversation's system prompt; sent from its next answer on. */
export const saveSystemPrompt = async (sessionId: string, systemPrompt: string | null) =>
  (
    await sendJson<{ session: { systemPrompt: string | null } }>(sessionUrl(sessionId), "PATCH", {
      systemPrompt,
    })
  ).session.systemPrompt;
/** A fact the extraction after an answer found (`GET /api/memories?messageId=`). */
export interface ExtractedFactView {
  id: string;
  text: string;
  status: "active" | "suggested";
}

/** The facts extraction found in one of the user's messages, once its extraction is done. */
export const getExtractedFacts = (messageId: string) =>
  getJson<{ memories: ExtractedFactView[] }>(`/api/memories?messageId=${encodeURIComponent(messageId)}`);

/** Accepts a suggested fact, optionally with corrected text. */
export const acceptFact = (id: string, text?: string) =>
  sendJson<{ memory: ExtractedFactView }>(
    `/api/memories/${encodeURIComponent(id)}`,
    "PATCH",
    text === undefined ? { status: "active" } : { status: "active", text },
  );

/** Dismisses a suggestion, or undoes a fact remembered automatically. */
export const deleteFact = (id: string) =>
  sendJson<unknown>(`/api/memories/${encodeURIComponent(id)}`, "DELETE");
/** A share link of the user's (GET /api/shares). */
export interface ShareLinkView {
  id: string;
  url: string;
  sessionId: string;
  title: string;
  createdAt: string;
  messages: number;
}

export const SHARES_URL = "/api/shares";

export const listShares = () => getJson<ShareLinkView[]>(SHARES_URL);

/** Snapshots the conversation's active path into a new share link. */
export const createShare = (sessionId: string) =>
  sendJson<{ id: string; url: string }>(`/api/sessions/${encodeURIComponent(sessionId)}/share`, "POST", {});

/** Revokes a share link: its page is a 404 from then on. */
export async function revokeShare(shareId: string): Promise<void> {
  await request(`${SHARES_URL}/${encodeURIComponent(shareId)}`, { method: "DELETE" });
}

/** Deletes a conversation (a temporary chat being left); a conversation already gone counts as deleted. */
export async function deleteSessionQuietly(sessionId: string): Promise<void> {
  await fetch(`/api/sessions/${encodeURIComponent(sessionId)}`, { method: "DELETE", keepalive: true }).catch(
    () => undefined,
  );
}
/** Stops an answer being written, wherever it runs (decision 033); an answer that has ended is left as it is. */
export const stopAnswer = (sessionId: string, messageId: string) =>
  sendJson<{ id: string; stopping: boolean; status: string }>(
    `/api/sessions/${encodeURIComponent(sessionId)}/messages/${encodeURIComponent(messageId)}/stop`,
    "POST",
    // A write without a JSON body is refused as cross-site (lib/security/csrf.ts).
    {},
  );

/** How many long-term facts learned in the conversation its deletion removes; throws a RequestError. */
export async function getSessionFactCount(sessionId: string): Promise<number> {
  const body = await getJson<{ session: { factCount: number } }>(
    `/api/sessions/${encodeURIComponent(sessionId)}?limit=1`,
  );
  return body.session.factCount;
}

const projectFilesUrl = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/files`;

/** A project's files, newest first; throws a RequestError. */
export const listProjectFiles = async (projectId: string) =>
  (await getJson<{ files: ProjectFileView[] }>(projectFilesUrl(projectId))).files;

/** Uploads one file to a project (cut and indexed by the server); progress 0…1 while its bytes are sent. */
export async function uploadProjectFile(
  projectId: string,
  file: File,
  onProgress?: (fraction: number) => void,
): Promise<ProjectFileView> {
  const form = new FormData();
  form.append("file", file);
  return (await upload<{ file: ProjectFileView }>(projectFilesUrl(projectId), form, { onProgress })).file;
}

/** Deletes a project's file with its parts; its receipt counts them. */
export const deleteProjectFile = async (projectId: string, fileId: string) =>
  (
    await sendJson<{ receipt: { fileId: string; deleted: Record<string, number> } }>(
      `${projectFilesUrl(projectId)}/${encodeURIComponent(fileId)}`,
      "DELETE",
    )
  ).receipt;
