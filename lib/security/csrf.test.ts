import { describe, expect, it } from "vitest";
import { assertSameOrigin } from "./csrf";

const policy = { allowedOrigins: ["https://chat.example.com"] };
const req = (method: string, headers: Record<string, string>, body?: string) =>
  new Request("http://127.0.0.1:3000/api/sessions", {
    method,
    headers: { host: "127.0.0.1:3000", ...headers },
    body,
  });
const json = { "content-type": "application/json" };

describe("assertSameOrigin", () => {
  it("lets reads through without an Origin", () => {
    expect(() => assertSameOrigin(req("GET", {}), policy)).not.toThrow();
  });

  it("accepts a JSON write from the app's own origin or an allowed one", () => {
    expect(() =>
      assertSameOrigin(req("POST", { origin: "http://127.0.0.1:3000", ...json }, "{}"), policy),
    ).not.toThrow();
    expect(() =>
      assertSameOrigin(req("POST", { origin: "https://chat.example.com", ...json }, "{}"), policy),
    ).not.toThrow();
    expect(() => assertSameOrigin(req("DELETE", { origin: "http://127.0.0.1:3000" }), policy)).not.toThrow();
  });

  it("refuses a missing, null or foreign Origin (another port of the same host included)", () => {
    for (const origin of [undefined, "null", "http://127.0.0.1:3001", "https://evil.example", "::"]) {
      const r = req("POST", { ...(origin ? { origin } : {}), ...json }, "{}");
      expect(() => assertSameOrigin(r, policy), String(origin)).toThrow(
        expect.objectContaining({ code: "csrf", status: 403 }),
      );
    }
  });

  it("refuses a form or text/plain body even from the app's own origin", () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const r = req("POST", { origin: "http://127.0.0.1:3000", "content-type": type }, "{}");
      expect(() => assertSameOrigin(r, policy), type).toThrow(expect.objectContaining({ code: "csrf" }));
    }
    expect(() => assertSameOrigin(req("POST", { origin: "http://127.0.0.1:3000" }), policy)).toThrow();
  });

  it("lets a file upload send multipart/form-data from the app's own origin, only on the upload routes", () => {
    const upload = (path: string, origin = "http://127.0.0.1:3000") =>
      new Request(`http://127.0.0.1:3000${path}`, {
        method: "POST",
        headers: { host: "127.0.0.1:3000", origin, "content-type": "multipart/form-data; boundary=x" },
        body: "x",
      });
    for (const path of ["/api/attachments", "/api/projects/p1/files"]) {
      expect(() => assertSameOrigin(upload(path), policy), path).not.toThrow();
      expect(() => assertSameOrigin(upload(path, "https://evil.example"), policy), path).toThrow();
    }
    for (const path of [
      "/api/projects/p1",
      "/api/projects/p1/files/f1",
      "/api/projects/a/b/files",
      "/api/import",
    ]) {
      expect(() => assertSameOrigin(upload(path), policy), path).toThrow(
        expect.objectContaining({ code: "csrf" }),
      );
    }
  });

  it("exempts a bearer-key request that carries no cookies, not one that does", () => {
    expect(() =>
      assertSameOrigin(req("POST", { authorization: "Bearer k", ...json }, "{}"), policy),
    ).not.toThrow();
    expect(() =>
      assertSameOrigin(req("POST", { authorization: "Bearer k", cookie: "a=b", ...json }, "{}"), policy),
    ).toThrow(expect.objectContaining({ code: "csrf" }));
  });

  it("accepts the public URL's origin (NEXTAUTH_URL) behind a proxy that rewrites Host", () => {
    const r = req("POST", { origin: "https://recall.example.org", ...json }, "{}");
    expect(() =>
      assertSameOrigin(r, { allowedOrigins: [], publicUrl: "https://recall.example.org/" }),
    ).not.toThrow();
  });
});
