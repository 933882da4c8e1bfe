// Shared by scripts/e2e.ts, playwright.config.ts and the fixtures. No Playwright imports: the runner script
// loads this file too.

/** The administrator scripts/e2e.ts creates through `npm run setup` in each run's fresh database. */
export const ADMIN = {
  email: "admin@e2e.recall.test",
  password: "e2e-admin-password",
  name: "E2E Admin",
} as const;

/**
 * Every port an e2e run listens on, by the variable that overrides it. E2E_PORT_OFFSET is added to all of them:
 * scripts/e2e.ts gives the PostgreSQL run its own ports that way, so that both databases' runs go at once.
 */
const PORTS = {
  /** The main server: default configuration (memory window 20). */
  E2E_PORT: 3210,
  /** A second server on the same build and database with MEMORY_MAX_MESSAGES=2 and the scripted model. */
  E2E_WINDOW_PORT: 3211,
  E2E_SLOW_PORT: 3212,
  E2E_FLAKY_PORT: 3213,
  E2E_CRASH_PORT: 3214,
  E2E_OPENAI_SLOW_PORT: 3215,
  E2E_INSTANCE_A_PORT: 3216,
  E2E_INSTANCE_B_PORT: 3217,
  E2E_UI_SLOW_PORT: 3218,
  /** A third server with the scripted test model (OFFLINE_MODEL=scripted): the specs that assert on memory use it. */
  E2E_SCRIPTED_PORT: 3219,
  E2E_LIVE_PORT: 3231,
  E2E_LIVE_B_PORT: 3232,
  /** A server of e2e/sso.spec.ts's own, configured for single sign-on against the test provider below. */
  E2E_SSO_PORT: 3241,
  /** The test OpenID Connect provider (scripts/e2e-oidc.ts) the SSO server signs in with. */
  E2E_OIDC_PORT: 3242,
} as const;

const integer = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return n;
};

/** The port named `name` in PORTS (its variable, or the default), shifted by E2E_PORT_OFFSET. */
export function e2ePort(name: keyof typeof PORTS): number {
  const n = integer(name, PORTS[name]) + integer("E2E_PORT_OFFSET", 0);
  if (n <= 0 || n > 65535) throw new Error(`${name} (plus E2E_PORT_OFFSET) must be a TCP port, got ${n}`);
  return n;
}

export const MAIN_PORT = e2ePort("E2E_PORT");
export const WINDOW_PORT = e2ePort("E2E_WINDOW_PORT");
export const WINDOW_SIZE = 2;
export const SCRIPTED_PORT = e2ePort("E2E_SCRIPTED_PORT");
export const SSO_PORT = e2ePort("E2E_SSO_PORT");
export const OIDC_PORT = e2ePort("E2E_OIDC_PORT");
/** The test provider's one client: the SSO server's OIDC_CLIENT_ID and OIDC_CLIENT_SECRET. */
export const OIDC_TEST_CLIENT = { id: "recall-e2e", secret: "recall-e2e-client-secret-0123456789" } as const;

/**
 * `next start`'s arguments for every test server. Idle keep-alive sockets stay open two minutes: with Node's
 * default of 5 s, a client that reused a socket just as the server closed it got "socket hang up (ECONNRESET)".
 */
export const startArgs = (port: number) => [
  "start",
  "-H",
  "127.0.0.1",
  "-p",
  String(port),
  "--keepAliveTimeout",
  "120000",
];

// 127.0.0.1 everywhere: cookies are per host, and localhost would be a different one.
export const MAIN_URL = `http://127.0.0.1:${MAIN_PORT}`;
export const WINDOW_URL = `http://127.0.0.1:${WINDOW_PORT}`;
export const SCRIPTED_URL = `http://127.0.0.1:${SCRIPTED_PORT}`;
export const SSO_URL = `http://127.0.0.1:${SSO_PORT}`;
export const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;
