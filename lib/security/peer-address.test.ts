import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";
import { PEER_HEADER, stampPeerAddresses } from "./peer-address";

// A real loopback server: what a route handler would compute from the headers the server hands on.
describe("peer address stamp", () => {
  let server: http.Server;
  let url: string;

  beforeAll(async () => {
    stampPeerAddresses();
    stampPeerAddresses(); // twice is once
    server = http.createServer((req, res) => {
      const headers = new Headers(req.headers as Record<string, string>);
      res.end(JSON.stringify({ none: clientIp(headers, 0), oneHop: clientIp(headers, 1) }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("keys on the socket without a proxy, whatever the client writes in X-Forwarded-For or in our header", async () => {
    const seen = new Set<string>();
    for (const forged of ["203.0.113.7", "203.0.113.8", "198.51.100.1"]) {
      const res = await fetch(url, { headers: { "x-forwarded-for": forged, [PEER_HEADER]: forged } });
      const body = (await res.json()) as { none: string; oneHop: string };
      seen.add(body.none);
      // Behind a trusted proxy the forwarded entry is what counts (here the client's, as a proxy would append it).
      expect(body.oneHop).toBe(forged);
    }
    expect([...seen]).toEqual(["127.0.0.1"]);
  });
});
