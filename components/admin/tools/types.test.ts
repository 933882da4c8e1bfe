import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestError } from "@/lib/client/api";
import { mapToLines, send, serverBodyOf } from "./types";

describe("serverBodyOf", () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  it("reads a stdio server: arguments one a line, NAME=value environment", () => {
    const body = serverBodyOf(
      form({
        name: " files ",
        command: "npx",
        args: "-y\n\n @mcp/files \n",
        env: "ROOT=/tmp\nnot a pair\nMODE = ro",
        enabled: "on",
        timeoutMs: "5000",
        maxResultChars: "100",
        url: "ignored",
      }),
      "stdio",
    );
    expect(body).toEqual({
      name: "files",
      transport: "stdio",
      command: "npx",
      args: ["-y", "@mcp/files"],
      env: { ROOT: "/tmp", MODE: "ro" },
      enabled: true,
      timeoutMs: 5000,
      maxResultChars: 100,
    });
  });

  it("reads an http server: Name: value headers; an unticked box is disabled", () => {
    const body = serverBodyOf(
      form({ name: "web", url: "https://x.test/mcp", headers: "Authorization: Bearer a:b", timeoutMs: "1" }),
      "http",
    );
    expect(body).toMatchObject({
      transport: "http",
      url: "https://x.test/mcp",
      headers: { Authorization: "Bearer a:b" },
      enabled: false,
    });
    expect(body).not.toHaveProperty("command");
    expect(mapToLines({ Authorization: "Bearer a:b" }, ":")).toBe("Authorization: Bearer a:b");
  });
});

describe("send", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/deleted") {
        res.writeHead(204).end();
      } else if (req.url === "/saved") {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ server: { id: "s1" } }));
      } else if (req.url === "/invalid") {
        res.writeHead(422, { "content-type": "application/json" }).end(
          JSON.stringify({
            error: {
              code: "validation_error",
              message: "Invalid.",
              details: [{ path: "url", message: "Bad" }],
            },
          }),
        );
      } else {
        res.writeHead(500, { "content-type": "text/plain" }).end("oops");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("returns the answer, or null for 204", async () => {
    expect(await send(`${base}/saved`, "POST", { name: "x" })).toEqual({
      ok: true,
      data: { server: { id: "s1" } },
    });
    expect(await send(`${base}/deleted`, "DELETE")).toEqual({ ok: true, data: null });
  });

  it("returns the API's error with its details, and null for an answer that is not one", async () => {
    expect(await send(`${base}/invalid`, "PATCH", {})).toEqual({
      ok: false,
      error: { code: "validation_error", message: "Invalid.", details: [{ path: "url", message: "Bad" }] },
    });
    expect(await send(`${base}/broken`, "GET")).toEqual({ ok: false, error: null });
  });

  it("throws when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(send(`http://127.0.0.1:${port}/`, "GET")).rejects.toBeInstanceOf(RequestError);
  });
});
