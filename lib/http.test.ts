import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "./errors";
import { errorResponse, MAX_DRAIN_BYTES, readBodyText, readJson, route } from "./http";

afterEach(() => vi.restoreAllMocks());

const body = async (res: Response) => (await res.json()) as { error: { code: string; message: string } };

describe("errorResponse", () => {
  it("maps an AppError to its status and code", async () => {
    const res = errorResponse(new AppError("turn_in_progress", "busy"));
    expect(res.status).toBe(409);
    expect(await body(res)).toEqual({ error: { code: "turn_in_progress", message: "busy" } });
  });

  it("maps a validation error to 422 with the first message and details", async () => {
    const parsed = z
      .object({ content: z.string().min(1, "Write a message first.") })
      .safeParse({ content: "" });
    const res = errorResponse(parsed.error);
    expect(res.status).toBe(422);
    const json = (await res.json()) as { error: { code: string; message: string; details: unknown[] } };
    expect(json.error.code).toBe("validation_failed");
    expect(json.error.message).toBe("Write a message first.");
    expect(json.error.details).toEqual([{ path: "content", message: "Write a message first." }]);
  });

  it("maps a database failure to 503 storage_error without leaking it", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const e = Object.assign(new Error("SQLITE_BUSY: database is locked at /secret/path.db"), {
      name: "PrismaClientKnownRequestError",
    });
    const res = errorResponse(e);
    expect(res.status).toBe(503);
    const json = await body(res);
    expect(json.error.code).toBe("storage_error");
    expect(json.error.message).not.toContain("secret");
    expect(log).toHaveBeenCalled();
  });

  it("maps anything else to a generic 500 that reveals nothing", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const res = errorResponse(new TypeError("Cannot read properties of undefined (reading 'passwordHash')"));
    expect(res.status).toBe(500);
    const json = await body(res);
    expect(json.error.code).toBe("internal_error");
    expect(json.error.message).not.toMatch(/passwordHash|undefined/);
  });
});

describe("readJson", () => {
  const schema = z.object({ title: z.string() });
  it("parses a valid body", async () => {
    const req = new Request("http://x", { method: "POST", body: JSON.stringify({ title: "t" }) });
    expect(await readJson(req, schema)).toEqual({ title: "t" });
  });
  it("turns malformed JSON into a 400 bad_request", async () => {
    const req = new Request("http://x", { method: "POST", body: "{not json" });
    await expect(readJson(req, schema)).rejects.toMatchObject({ code: "bad_request", status: 400 });
  });
});

describe("body limit (MAX_BODY_BYTES)", () => {
  const schema = z.object({ title: z.string() });

  it("refuses a declared Content-Length over the limit with 413, keeping none of it", async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const req = new Request("http://x", {
      method: "POST",
      body,
      headers: { "content-length": String(10 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    await expect(readBodyText(req, 4096)).rejects.toMatchObject({ code: "payload_too_large", status: 413 });
    // Drained (so the client can read the 413) but never kept, and never more than MAX_DRAIN_BYTES.
    expect(pulled).toBeLessThanOrEqual(MAX_DRAIN_BYTES / 1024 + 2);
  });

  it("refuses a stream once it passes the limit, and stops draining an endless one", async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const req = new Request("http://x", { method: "POST", body: endless, duplex: "half" } as RequestInit);
    await expect(readBodyText(req, 10 * 1024)).rejects.toMatchObject({ code: "payload_too_large" });
    expect(pulled).toBeLessThanOrEqual(MAX_DRAIN_BYTES / 1024 + 2);
  });

  it("drains a refused body that ends, so the answer reaches the client", async () => {
    let left = 64;
    const finite = new ReadableStream<Uint8Array>({
      pull(c) {
        if (left-- === 0) c.close();
        else c.enqueue(new Uint8Array(1024));
      },
    });
    const req = new Request("http://x", { method: "POST", body: finite, duplex: "half" } as RequestInit);
    await expect(readBodyText(req, 10 * 1024)).rejects.toMatchObject({ code: "payload_too_large" });
    expect(left).toBe(-1);
  });

  it("reads a body at the limit; readJson applies MAX_BODY_BYTES (default 1 MB)", async () => {
    const text = JSON.stringify({ title: "x".repeat(100) });
    expect(await readBodyText(new Request("http://x", { method: "POST", body: text }), text.length)).toBe(
      text,
    );
    const big = JSON.stringify({ title: "x".repeat(1024 * 1024) });
    await expect(
      readJson(new Request("http://x", { method: "POST", body: big }), schema),
    ).rejects.toMatchObject({
      code: "payload_too_large",
    });
  });

  it("maps 413 to JSON", async () => {
    const res = errorResponse(new AppError("payload_too_large", "too big"));
    expect(res.status).toBe(413);
    expect((await body(res)).error.code).toBe("payload_too_large");
  });
});

describe("route() CSRF check", () => {
  const handler = route("public", async () => Response.json({ ok: true }, { status: 201 }));
  const post = (headers: Record<string, string>, text = "{}") =>
    handler(
      new Request("http://127.0.0.1:3000/api/x", {
        method: "POST",
        headers: { host: "127.0.0.1:3000", ...headers },
        body: text,
      }),
      { params: Promise.resolve({}) },
    );

  it("runs the handler for a JSON write from the app's own origin", async () => {
    const res = await post({ origin: "http://127.0.0.1:3000", "content-type": "application/json" });
    expect(res.status).toBe(201);
  });

  it("answers 403 csrf for a foreign Origin, a missing one, or text/plain", async () => {
    const cases: Record<string, string>[] = [
      { origin: "http://127.0.0.1:4000", "content-type": "application/json" },
      { "content-type": "application/json" },
      { origin: "http://127.0.0.1:3000", "content-type": "text/plain" },
    ];
    for (const headers of cases) {
      const res = await post(headers);
      expect(res.status).toBe(403);
      expect((await body(res)).error.code).toBe("csrf");
    }
  });

  it("adds Retry-After to 429 rate_limited", async () => {
    const res = errorResponse(
      new AppError("rate_limited", "slow down", { details: { retryAfterSeconds: 42 } }),
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("42");
  });
});
