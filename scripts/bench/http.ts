import http from "node:http";

// A minimal HTTP client for the benchmark: node:http with keep-alive (what a browser does) and a cookie jar per
// signed-in user. Timings are taken with performance.now() around the whole exchange, at the client.

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

export interface TurnTiming {
  /** Request start → end of the event stream. */
  totalMs: number;
  /** Request start → first byte of the response body (the turn's `meta` event). */
  firstByteMs: number;
  /** Request start → first byte of the model's text (the first `delta` event). */
  firstDeltaMs: number;
  /** The raw event stream (W6 rebuilds the answer from its deltas). */
  body: string;
}

/** The ids of the question and the answer a turn's `meta` event announced. */
export function metaOf(body: string): { questionId: string; answerId: string } {
  const data = /^event: meta\ndata: (.*)$/m.exec(body)?.[1];
  const meta = data
    ? (JSON.parse(data) as { userMessage?: { id?: string }; assistantMessage?: { id?: string } })
    : {};
  const questionId = meta.userMessage?.id;
  const answerId = meta.assistantMessage?.id;
  if (!questionId || !answerId) throw new BenchError(`no meta event in ${body.slice(0, 200)}`);
  return { questionId, answerId };
}

export class BenchError extends Error {
  override name = "BenchError";
}

export class Client {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly label = "anonymous",
  ) {}

  /** Shares the cookies (the signed-in session) of another client, e.g. on a second server with the same secret. */
  withBase(baseUrl: string): Client {
    const c = new Client(baseUrl, this.label);
    for (const [k, v] of this.cookies) c.cookies.set(k, v);
    return c;
  }

  private store(headers: http.IncomingHttpHeaders) {
    for (const line of headers["set-cookie"] ?? []) {
      const pair = line.split(";", 1)[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  private options(method: string, path: string, headers: Record<string, string>): http.RequestOptions {
    const url = new URL(path, this.baseUrl);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    return {
      method,
      hostname: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      agent,
      headers: { origin: url.origin, ...headers, ...(cookie ? { cookie } : {}) }, // origin: the CSRF check
    };
  }

  request(
    method: string,
    path: string,
    {
      json,
      form,
      headers: extra,
    }: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<HttpResponse> {
    const body =
      json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = { accept: "application/json", ...extra };
    if (body !== undefined) {
      headers["content-type"] = json !== undefined ? "application/json" : "application/x-www-form-urlencoded";
      headers["content-length"] = String(Buffer.byteLength(body));
    }
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(this.options(method, path, headers), (res) => {
        this.store(res.headers);
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: performance.now() - started,
          }),
        );
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** A JSON request that must answer `expect` (default 200). */
  async json<T>(
    method: string,
    path: string,
    json?: unknown,
    expect = 200,
  ): Promise<{ data: T; ms: number }> {
    const res = await this.request(method, path, json === undefined ? {} : { json });
    if (res.status !== expect) {
      throw new BenchError(
        `${method} ${path} as ${this.label}: HTTP ${res.status} ${res.body.slice(0, 300)}`,
      );
    }
    return { data: (res.body ? JSON.parse(res.body) : null) as T, ms: res.ms };
  }

  /** next-auth v4 credentials sign-in: csrf token, then the callback with json=true; keeps the session cookie. */
  async signIn(email: string, password: string): Promise<void> {
    const { data } = await this.json<{ csrfToken: string }>("GET", "/api/auth/csrf");
    const res = await this.request("POST", "/api/auth/callback/credentials", {
      form: { csrfToken: data.csrfToken, email, password, json: "true" },
    });
    const session = [...this.cookies.keys()].some((k) => k.endsWith("next-auth.session-token"));
    if (res.status !== 200 || !session) {
      throw new BenchError(`sign-in of ${email} failed: HTTP ${res.status} ${res.body.slice(0, 300)}`);
    }
  }

  /** POST /api/attachments with one file (multipart); the upload's `{ id, … }`. */
  upload(
    name: string,
    data: Buffer,
    type = "application/octet-stream",
  ): Promise<{ id: string; bytes: number; ms: number }> {
    const boundary = `----recall-bench-${Math.random().toString(36).slice(2)}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const headers = {
      accept: "application/json",
      "content-type": `multipart/form-data; boundary=${boundary}`,
      "content-length": String(body.length),
    };
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(this.options("POST", "/api/attachments", headers), (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 201) {
            reject(
              new BenchError(
                `upload of ${name} as ${this.label}: HTTP ${res.statusCode} ${text.slice(0, 300)}`,
              ),
            );
            return;
          }
          const { id, bytes } = JSON.parse(text) as { id: string; bytes: number };
          resolve({ id, bytes, ms: performance.now() - started });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** One chat turn over HTTP, read to the end of its event stream. Throws unless it ends with `done`/complete. */
  turn(
    sessionId: string,
    content: string,
    extra: { attachments?: string[]; parentId?: string | null } = {},
  ): Promise<TurnTiming> {
    return this.post(sessionId, { content, ...extra });
  }

  /** Another version of an answer: `{ regenerate: answerId }`, read like a turn. */
  regenerate(sessionId: string, answerId: string): Promise<TurnTiming> {
    return this.post(sessionId, { regenerate: answerId });
  }

  /** A turn like `turn`, with each piece of its event stream handed to `onChunk` as it arrives (W9). */
  watchedTurn(
    sessionId: string,
    content: string,
    onChunk: (chunk: string, now: number) => void,
  ): Promise<TurnTiming> {
    return this.post(sessionId, { content }, onChunk);
  }

  private post(
    sessionId: string,
    input: Record<string, unknown>,
    onChunk?: (chunk: string, now: number) => void,
  ): Promise<TurnTiming> {
    const body = JSON.stringify(input);
    const headers = {
      accept: "text/event-stream",
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
    };
    const path = `/api/sessions/${encodeURIComponent(sessionId)}/messages`;
    return new Promise((resolve, reject) => {
      const started = performance.now();
      let firstByte = Number.NaN;
      let firstDelta = Number.NaN;
      const req = http.request(this.options("POST", path, headers), (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          const now = performance.now();
          if (Number.isNaN(firstByte)) firstByte = now;
          text += chunk;
          if (Number.isNaN(firstDelta) && text.includes("event: delta")) firstDelta = now;
          onChunk?.(chunk, now);
        });
        res.on("error", reject);
        res.on("end", () => {
          const end = performance.now();
          if (res.statusCode !== 200 || !/event: done\ndata: \{[^\n]*"status":"complete"/.test(text)) {
            reject(
              new BenchError(
                `turn in ${sessionId} as ${this.label}: HTTP ${res.statusCode} ${text.slice(-400).trim()}`,
              ),
            );
            return;
          }
          resolve({
            totalMs: end - started,
            firstByteMs: firstByte - started,
            firstDeltaMs: firstDelta - started,
            body: text,
          });
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  }
}
