import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readyMessage, waitForServer } from "./demo";
import { adminLines, box } from "./lib/ready-box";

let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

describe("npm run demo", () => {
  it("waits until the server answers, even one that starts listening late", async () => {
    const port = await freePort();
    setTimeout(() => {
      server = http.createServer((_req, res) => res.writeHead(503).end()).listen(port, "127.0.0.1");
    }, 300);
    const started = Date.now();
    await waitForServer(`http://127.0.0.1:${port}/api/health`, { alive: () => true, everyMs: 50 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("gives up when the server exits or does not answer in time", async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    await expect(waitForServer(url, { alive: () => false })).rejects.toThrow("exited before it answered");
    await expect(waitForServer(url, { alive: () => true, timeoutMs: 100, everyMs: 20 })).rejects.toThrow(
      "did not answer within 0.1 s",
    );
  });

  it("ends with the address and the one-time password in a box, and names the command that serves again", () => {
    const text = readyMessage({
      url: "http://127.0.0.1:3000",
      admin: { email: "admin@recall.local", generatedPassword: "pw-123" },
    });
    const lines = text.trim().split("\n");
    expect(lines[0]).toContain("open http://127.0.0.1:3000");
    expect(lines[0]).toContain("`npm start` serves it again");
    expect(lines.at(-1)).toMatch(/^└─+┘$/);
    expect(lines.find((l) => l.includes("pw-123"))).toMatch(/^│ Password: +pw-123 +│$/);
    expect(new Set(lines.slice(1).map((l) => l.length)).size).toBe(1);
    // An administrator that already existed: no password to show, no box.
    expect(readyMessage({ url: "http://127.0.0.1:3000", admin: { email: "a@b.c" } })).not.toContain("┌");
  });

  it("frames lines of different lengths evenly", () => {
    expect(box(["ab", "abcd"])).toBe("┌──────┐\n│ ab   │\n│ abcd │\n└──────┘");
    expect(adminLines({ email: "e@x.y", password: "p" })[1]).toBe("Password:      p");
  });
});
