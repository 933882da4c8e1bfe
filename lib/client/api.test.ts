import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answered, RequestError, refusalOf, request, sendJson, serverErrorOf } from "./api";

describe("refusalOf", () => {
  it("carries the server's own error, its code and its details", () => {
    const details = [{ path: "conversations.0.title", message: "Required" }];
    const e = refusalOf(422, { error: { code: "validation_error", message: "Invalid file.", details } });
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toBe("Invalid file.");
    expect(e.status).toBe(422);
    expect(e.code).toBe("validation_error");
    expect(e.fromServer).toBe(true);
    expect(e.details).toEqual(details);
    expect(e.rejected).toBe(true);
    expect(serverErrorOf(e)).toEqual({ code: "validation_error", message: "Invalid file." });
  });

  it("stands in with the status when the answer was not the API's error (a proxy's page)", () => {
    const e = refusalOf(502, null);
    expect(e.message).toBe("Request failed (502).");
    expect(e.code).toBeUndefined();
    expect(e.fromServer).toBe(false);
    expect(e.details).toBeUndefined();
    expect(e.rejected).toBe(false);
    expect(serverErrorOf(e)).toBeNull();
  });
});

describe("request against a real server", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/ok") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ echo: req.method }));
      } else if (req.url === "/refused") {
        res.writeHead(422, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: "validation_error", message: "Bad.", details: [1] } }));
      } else {
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html>Bad gateway</html>");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("returns a 2xx answer", async () => {
    expect(await sendJson(`${base}/ok`, "PATCH", { a: 1 })).toEqual({ echo: "PATCH" });
  });

  it("throws the server's refusal with its details", async () => {
    const e = await request(`${base}/refused`).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(answered(e)).toBe(true);
    expect(e).toMatchObject({ status: 422, code: "validation_error", message: "Bad.", details: [1] });
  });

  it("throws a stand-in for an answer that is not JSON", async () => {
    const e = await request(`${base}/gateway`).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 502, message: "Request failed (502).", fromServer: false });
  });

  it("throws status 0 with a readable sentence when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await request(`http://127.0.0.1:${port}/`).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(answered(e)).toBe(false);
    expect((e as RequestError).message).toMatch(/Can't reach Recall/);
  });
});
