import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "./errors";
import { errorResponse, readJson } from "./http";

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
