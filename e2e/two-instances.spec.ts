import http from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, request as playwrightRequest } from "@playwright/test";
import {
  ADMIN,
  type ExtraServer,
  e2ePort,
  errorCode,
  expect,
  MAIN_URL,
  newCredentials,
  registerViaApi,
  signInViaApi,
  startServer,
  test,
} from "./fixtures";

// Scale-out: two `next start` instances on one PostgreSQL database behind a round-robin HTTP proxy
// written here (node:http, loopback only, no sticky sessions). Turns on one conversation run one at a time across
// the instances, rate limits are counted once for both, and what one instance deletes is gone on the other.
// PostgreSQL only: `npm run test:e2e` runs it in its @pg pass (SQLite is one instance by design).

const PORTS = [e2ePort("E2E_INSTANCE_A_PORT"), e2ePort("E2E_INSTANCE_B_PORT")];

type Hit = { method: string; path: string; port: number };

interface Proxy {
  url: string;
  hits: Hit[];
  close: () => Promise<void>;
}

/**
 * A minimal load balancer: each request goes to the next instance in turn, streamed both ways (answers are
 * server-sent events), with X-Forwarded-For appended as a real proxy would.
 */
async function startProxy(ports: number[]): Promise<Proxy> {
  const hits: Hit[] = [];
  let next = 0;
  const server = http.createServer((req, res) => {
    const port = ports[next++ % ports.length] as number;
    hits.push({ method: req.method ?? "GET", path: req.url ?? "/", port });
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, "x-forwarded-for": forwarded },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
      res.end('{"error":{"code":"bad_gateway","message":"instance unreachable"}}');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const onPostgres = /^postgres(ql)?:\/\//.test(process.env.E2E_DATABASE_URL ?? "");

test.describe("two instances on one PostgreSQL behind a round-robin proxy @pg", () => {
  test.skip(!onPostgres, "PostgreSQL only: runs in the @pg pass of npm run test:e2e");
  test.describe.configure({ mode: "serial" });

  let proxy: Proxy;
  let instances: ExtraServer[] = [];
  const contexts: APIRequestContext[] = [];

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    proxy = await startProxy(PORTS);
    const env = {
      // The proxy's origin is this deployment's public one (as behind a balancer that keeps Host).
      ALLOWED_ORIGINS: `${MAIN_URL},${proxy.url}`,
      TRUSTED_PROXY_HOPS: "1",
      // Every turn holds its session for at least 1.5 s, so the concurrent ones below overlap for certain.
      OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: "1500",
    };
    instances = await Promise.all(PORTS.map((port) => startServer(port, env)));
  });

  test.afterAll(async () => {
    await Promise.all(contexts.map((c) => c.dispose()));
    await Promise.all(instances.map((s) => s.stop()));
    await proxy?.close();
  });

  /** An API client whose requests go through the proxy, signed in as `creds`. */
  async function client(creds: { email: string; password: string }) {
    const ctx = await playwrightRequest.newContext({
      baseURL: proxy.url,
      extraHTTPHeaders: { origin: proxy.url },
    });
    contexts.push(ctx);
    await signInViaApi(ctx, creds);
    return ctx;
  }

  async function newUser(label: string) {
    const creds = newCredentials(label);
    const ctx = await playwrightRequest.newContext({
      baseURL: proxy.url,
      extraHTTPHeaders: { origin: proxy.url },
    });
    contexts.push(ctx);
    await registerViaApi(ctx, creds);
    return { creds, api: await client(creds) };
  }

  const cookieOf = async (ctx: APIRequestContext) =>
    (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");

  test("concurrent turns on one session from both instances run one at a time; seqs gap-free, one snapshot", async () => {
    test.setTimeout(120_000);
    const { api } = await newUser("scale");
    const cookie = await cookieOf(api);
    const created = await api.post("/api/sessions", { data: { title: "two instances" } });
    expect(created.status()).toBe(201);
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;

    // Warm both instances' turn route first (its first call compiles and connects): a cold instance could
    // otherwise reach the session only after the other's turn had ended, which is "one at a time" too.
    const warm = await api.post("/api/sessions", { data: { title: "warm-up" } });
    const warmId = ((await warm.json()) as { session: { id: string } }).session.id;
    for (const port of PORTS) {
      const res = await api.post(`http://127.0.0.1:${port}/api/sessions/${warmId}/messages`, {
        data: { content: "warm-up" },
      });
      expect(res.status(), `warm-up on ${port}`).toBe(200);
      await res.body();
    }

    const ROUNDS = 2;
    const PARALLEL = 6;
    for (let round = 1; round <= ROUNDS; round++) {
      const from = proxy.hits.length;
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) =>
          fetch(`${proxy.url}/api/sessions/${sessionId}/messages`, {
            method: "POST",
            headers: { cookie, origin: proxy.url, "content-type": "application/json" },
            body: JSON.stringify({
              content: `round ${round} attempt ${i}: remember the number ${round * 7}`,
            }),
          }),
        ),
      );
      const turnHits = proxy.hits.slice(from).filter((h) => h.path.endsWith("/messages"));
      expect(new Set(turnHits.map((h) => h.port)), "both instances took turn requests").toEqual(
        new Set(PORTS),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses, `round ${round}`).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
      for (const res of responses) {
        if (res.status === 200) {
          const stream = await res.text(); // the whole answer, to its final event
          expect(stream).toContain('"complete"');
        } else {
          expect(await errorCode(res)).toBe("turn_in_progress");
        }
      }
    }

    // Read back through each instance directly: the same gap-free history.
    for (const port of PORTS) {
      const res = await api.get(`http://127.0.0.1:${port}/api/sessions/${sessionId}`);
      expect(res.status()).toBe(200);
      const body = (await res.json()) as {
        session: { lastSeq: number };
        messages: { seq: number; role: string; status: string }[];
      };
      const seqs = body.messages.map((m) => m.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: ROUNDS * 2 }, (_, i) => i + 1));
      expect(body.session.lastSeq).toBe(ROUNDS * 2);
      expect(body.messages.every((m) => m.status === "complete")).toBe(true);
    }

    // One memory snapshot, written once per turn, through the last seq.
    const admin = await client(ADMIN);
    const review = await admin.get(`/api/admin/sessions/${sessionId}`);
    expect(review.status()).toBe(200);
    const { snapshot } = (await review.json()) as {
      snapshot: { throughSeq: number; version: number } | null;
    };
    expect(snapshot).toMatchObject({ throughSeq: ROUNDS * 2, version: ROUNDS });
  });

  test("rate limits are shared: failures counted on both instances add up to one account limit", async () => {
    const creds = newCredentials("shared-limit");
    const setup = await playwrightRequest.newContext({
      baseURL: proxy.url,
      extraHTTPHeaders: { origin: proxy.url },
    });
    contexts.push(setup);
    await registerViaApi(setup, creds);

    const ctx = await playwrightRequest.newContext({ baseURL: proxy.url });
    contexts.push(ctx);
    const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const attempt = (password: string, base = proxy.url) =>
      ctx.post(`${base}/api/auth/callback/credentials`, {
        form: { email: creds.email, password, csrfToken, json: "true" },
      });

    const from = proxy.hits.length;
    // The default: 10 failures per account per 15 minutes. Alternating, each instance sees 5 of them.
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).status(), `attempt ${i + 1}`).toBe(401);
    const callbacks = proxy.hits.slice(from).filter((h) => h.path.includes("/callback/credentials"));
    for (const port of PORTS) expect(callbacks.filter((h) => h.port === port)).toHaveLength(5);

    // Each instance refuses the right password now: it sees all ten failures, not its own five.
    for (const port of PORTS) {
      const limited = await attempt(creds.password, `http://127.0.0.1:${port}`);
      expect(limited.status(), `instance ${port}`).toBe(429);
      expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
      expect(await errorCode(limited)).toBe("rate_limited");
    }
  });

  test("a session deleted through one instance is gone on the other", async () => {
    const { api } = await newUser("delete");
    const created = await api.post("/api/sessions", { data: { title: "short-lived" } });
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
    const [a, b] = PORTS.map((port) => `http://127.0.0.1:${port}`) as [string, string];
    for (const base of [a, b])
      expect((await api.get(`${base}/api/sessions/${sessionId}`)).status()).toBe(200);

    const deleted = await api.delete(`${a}/api/sessions/${sessionId}`);
    expect(deleted.status()).toBe(200);

    const gone = await api.get(`${b}/api/sessions/${sessionId}`);
    expect(gone.status()).toBe(404);
    expect(await errorCode(gone)).toBe("not_found");
    const list = (await (await api.get(`${b}/api/sessions`)).json()) as { sessions: { id: string }[] };
    expect(list.sessions.map((s) => s.id)).not.toContain(sessionId);
  });

  test("signing out through one instance revokes the token on both", async () => {
    const { creds, api } = await newUser("signout");
    const other = await client(creds); // a second device
    const saved = await api.storageState();
    const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
    expect((await api.post("/api/auth/signout", { form: { csrfToken, json: "true" } })).ok()).toBe(true);

    const replay = await playwrightRequest.newContext({ storageState: saved });
    contexts.push(replay);
    for (const port of PORTS) {
      expect((await replay.get(`http://127.0.0.1:${port}/api/sessions`)).status(), `replay on ${port}`).toBe(
        401,
      );
      expect((await other.get(`http://127.0.0.1:${port}/api/sessions`)).status(), `device 2 on ${port}`).toBe(
        200,
      );
    }
  });
});
