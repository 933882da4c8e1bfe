// The browser's one way to call Recall's API: every failure becomes a RequestError with a message a person can
// read — the server's own `{ error: { code, message } }`, or a plain sentence when the server could not be reached
// (never the browser's "Failed to fetch"). SWR fetchers and mutations both go through `request`.

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

/** Stops an answer being written, wherever it runs (decision 033); an answer that has ended is left as it is. */
export const stopAnswer = (sessionId: string, messageId: string) =>
  sendJson<{ id: string; stopping: boolean; status: string }>(
    `/api/sessions/${encodeURIComponent(sessionId)}/messages/${encodeURIComponent(messageId)}/stop`,
    "POST",
    // A write without a JSON body is refused as cross-site (lib/security/csrf.ts).
    {},
  );
