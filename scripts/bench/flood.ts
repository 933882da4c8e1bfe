import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { withDatabase } from "../lib/database-url";
import { createDatabase, dropDatabase, migrateDatabase } from "../lib/migrate";
import { BenchError } from "./http";
import { fmtMs, table } from "./report";
import { assertBuilt, type RunningServer, serverEnv, startServer } from "./server";
import { summarize } from "./stats";

// npm run bench -- --flood [--db sqlite|postgres] [--requests 50] [--turns 20]  (or: npx tsx scripts/bench/flood.ts)
//
// The flood measurement: while N wrong-password sign-ins arrive at once, how long does another, signed-in
// user's turn take? It reports the p50 of that user's turns when the server is idle and during the flood, and
// their ratio (target: within 2x). Two floods from one address: against one account (its failure limit answers 429
// after 10, so most attempts cost no hash) and against N unknown e-mails (every attempt costs one scrypt verify:
// the worst case for the event loop). A measurement, not a test: it prints figures and never fails on them.
// A script, not the app: it reads process.env itself.

const DEFAULT_POSTGRES_SERVER = "postgresql://postgres@127.0.0.1:5432/postgres";
const log = (message: string) => console.log(`flood: ${message}`);

interface FloodOptions {
  db: "sqlite" | "postgres";
  requests: number;
  turns: number;
}

function parse(argv: string[]): FloodOptions {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== "--flood" && a !== "--"),
    options: {
      db: { type: "string", default: "sqlite" },
      requests: { type: "string", default: "50" },
      turns: { type: "string", default: "20" },
    },
    strict: true,
  });
  const db = values.db === "postgresql" ? "postgres" : values.db;
  if (db !== "sqlite" && db !== "postgres") throw new BenchError("--db must be sqlite or postgres");
  const requests = Number(values.requests);
  const turns = Number(values.turns);
  if (!Number.isInteger(requests) || requests < 1)
    throw new BenchError("--requests must be a positive integer");
  if (!Number.isInteger(turns) || turns < 3) throw new BenchError("--turns must be an integer of at least 3");
  return { db, requests, turns };
}

/** A signed-in user: a cookie jar and the app's own Origin, as a browser sends it. */
class User {
  private cookie = "";
  constructor(readonly base: string) {}

  async fetch(pathname: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
    const res = await fetch(new URL(pathname, this.base), {
      ...init,
      redirect: "manual",
      headers: { origin: this.base, ...(this.cookie ? { cookie: this.cookie } : {}), ...init.headers },
    });
    const set = res.headers.getSetCookie().map((c) => c.split(";", 1)[0] ?? "");
    if (set.length) {
      const jar = new Map(
        this.cookie ? this.cookie.split("; ").map((p) => p.split("=", 2) as [string, string]) : [],
      );
      for (const pair of set) {
        const eq = pair.indexOf("=");
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      this.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    return res;
  }

  async csrf(): Promise<string> {
    return ((await (await this.fetch("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
  }

  signInAttempt(csrfToken: string, email: string, password: string, ip: string) {
    return this.fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
      body: new URLSearchParams({ csrfToken, email, password, json: "true" }).toString(),
    });
  }

  /** One turn, read to the end of its event stream; its wall time in ms. */
  async turn(sessionId: string, content: string): Promise<number> {
    const started = performance.now();
    const res = await this.fetch(`/api/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ content }),
    });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"status":"complete"')) {
      throw new BenchError(`turn: HTTP ${res.status} ${text.slice(-300)}`);
    }
    return performance.now() - started;
  }
}

async function database(db: FloodOptions["db"]): Promise<{ url: string; cleanup: () => Promise<void> }> {
  if (db === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-flood-"));
    return {
      url: `file:${path.join(dir, "flood.db")}`,
      cleanup: async () => rmSync(dir, { recursive: true }),
    };
  }
  const server = process.env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_SERVER;
  const url = withDatabase(server, `recall_flood_${randomBytes(5).toString("hex")}`);
  await createDatabase(url);
  return { url, cleanup: () => dropDatabase(url) };
}

export interface FloodResult {
  db: string;
  requests: number;
  idle: { p50: number; p90: number; n: number };
  floods: {
    name: string;
    p50: number;
    p90: number;
    n: number;
    ratio: number;
    floodMs: number;
    statuses: Record<string, number>;
  }[];
}

/** The victim's turns, one after another, until `until` settles (at least `min` of them). */
async function turnsDuring(user: User, sessionId: string, until: Promise<unknown>, min: number) {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  while (!done || times.length < min) {
    times.push(await user.turn(sessionId, `during the flood, turn ${times.length}`));
    if (done && times.length >= min) break;
  }
  return times;
}

export async function runFlood(argv: string[]): Promise<FloodResult> {
  const options = parse(argv);
  assertBuilt(log);
  const { url, cleanup } = await database(options.db);
  let server: RunningServer | undefined;
  try {
    await migrateDatabase(url);
    server = await startServer(
      serverEnv({
        DATABASE_URL: url,
        AUTH_SECRET: randomBytes(32).toString("base64url"),
        // The defaults for everything measured; the flood comes from one address per flood (X-Forwarded-For, with
        // no trusted proxy the client picks it), so the per-address limit (100 / 15 min) is not what stops it.
        REGISTRATION: "open",
      }),
    );
    const base = server.url;
    log(`server on ${base} (${options.db})`);

    const victim = new User(base);
    const email = `victim-${randomBytes(4).toString("hex")}@flood.test`;
    const password = "victim-password-long";
    const reg = await victim.fetch("/api/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, name: "Victim", password }),
    });
    if (reg.status !== 201) throw new BenchError(`register: HTTP ${reg.status} ${await reg.text()}`);
    const signedIn = await victim.signInAttempt(await victim.csrf(), email, password, "10.0.0.1");
    if (signedIn.status !== 200) throw new BenchError(`sign-in: HTTP ${signedIn.status}`);
    const created = await victim.fetch("/api/sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "flood" }),
    });
    if (created.status !== 201)
      throw new BenchError(`session: HTTP ${created.status} ${await created.text()}`);
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;

    // Warm-up (JIT, first queries), then the idle baseline.
    for (let i = 0; i < 5; i++) await victim.turn(sessionId, `warm-up ${i}`);
    const idle: number[] = [];
    for (let i = 0; i < options.turns; i++) idle.push(await victim.turn(sessionId, `idle ${i}`));
    const idleSummary = summarize(idle);

    const attacker = new User(base);
    const csrfToken = await attacker.csrf();
    const floods: FloodResult["floods"] = [];
    for (const [name, target, ip] of [
      ["one account", () => email, "10.9.0.1"],
      [
        `${options.requests} unknown e-mails`,
        (i: number) => `nobody-${i}-${randomBytes(3).toString("hex")}@flood.test`,
        "10.9.0.2",
      ],
    ] as const) {
      const started = performance.now();
      const statuses: Record<string, number> = {};
      const flood = Promise.all(
        Array.from({ length: options.requests }, async (_, i) => {
          const res = await attacker.signInAttempt(csrfToken, target(i), `wrong-${i}`, ip);
          await res.arrayBuffer();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }),
      ).then(() => performance.now() - started);
      const during = await turnsDuring(victim, sessionId, flood, Math.max(3, Math.floor(options.turns / 4)));
      const floodMs = await flood;
      const s = summarize(during);
      floods.push({
        name,
        p50: s.median,
        p90: s.p90,
        n: during.length,
        ratio: s.median / idleSummary.median,
        floodMs,
        statuses,
      });
      // Let the server settle before the next flood.
      await new Promise((r) => setTimeout(r, 500));
    }

    const result: FloodResult = {
      db: options.db,
      requests: options.requests,
      idle: { p50: idleSummary.median, p90: idleSummary.p90, n: idle.length },
      floods,
    };
    console.log(
      [
        "",
        `Flood: another signed-in user's turn while ${options.requests} wrong-password sign-ins arrive at once (${options.db})`,
        table(
          ["", "turns", "p50", "p90", "p50 / idle", "flood took", "sign-in answers"],
          [
            ["idle", idle.length, fmtMs(idleSummary.median), fmtMs(idleSummary.p90), "1.00", "", ""],
            ...floods.map((f) => [
              `flood: ${f.name}`,
              f.n,
              fmtMs(f.p50),
              fmtMs(f.p90),
              `${f.ratio.toFixed(2)} ${f.ratio <= 2 ? "(within 2x)" : "(OVER 2x)"}`,
              fmtMs(f.floodMs),
              Object.entries(f.statuses)
                .map(([k, v]) => `${v}× ${k}`)
                .join(", "),
            ]),
          ],
        ),
      ].join("\n"),
    );
    return result;
  } finally {
    await server?.stop();
    await cleanup();
  }
}

if (require.main === module) {
  runFlood(process.argv.slice(2)).then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof BenchError ? `flood: ${e.message}` : e);
      process.exit(1);
    },
  );
}
