import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { OIDC_ISSUER, OIDC_PORT, OIDC_TEST_CLIENT, SSO_URL } from "../e2e/config";

// A real OpenID Connect provider for tests and local trials, built with `oidc-provider` (docs/decisions/035-oidc.md).
//   tsx scripts/e2e-oidc.ts [--redirect <app>/api/auth/callback/oidc]...
// Listens on 127.0.0.1:E2E_OIDC_PORT (3242) and prints "listening <issuer>" once it answers. One client:
// OIDC_TEST_CLIENT (e2e/config.ts), with the given redirect URIs (default the SSO spec's server, E2E_SSO_PORT). Its sign-in page takes any e-mail address and a "verified"
// checkbox; the account's subject is derived from both, and no password is asked. Consent is implied (the app is
// the provider's own client). Never for production: anyone may sign in as anyone.

function redirectUris(): string[] {
  const values: string[] = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++)
    if (argv[i] === "--redirect" && argv[i + 1]) values.push(argv[++i] as string);
  return values.length ? values : [`${SSO_URL}/api/auth/callback/oidc`];
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** accountId → claims: "verified:<email>" or "unverified:<email>". */
function claimsOf(accountId: string) {
  const [flag, ...rest] = accountId.split(":");
  const email = rest.join(":");
  return {
    sub: accountId,
    email,
    email_verified: flag === "verified",
    name: `SSO ${email.split("@")[0] ?? email}`,
  };
}

function loginPage(uid: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test provider sign-in</title></head>
<body><main><h1>Test provider</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Email <input name="email" type="email" required autofocus></label>
<label><input name="verified" type="checkbox" value="1" checked> Email verified</label>
<button type="submit">Continue</button>
</form></main></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

async function main() {
  const issuer = OIDC_ISSUER;
  // ESM only: imported, not required.
  const { default: Provider } = await import("oidc-provider");
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_TEST_CLIENT.id,
        client_secret: OIDC_TEST_CLIENT.secret,
        redirect_uris: redirectUris(),
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => claimsOf(id) };
    },
    // The provider's own client: consent is implied.
    async loadExistingGrant(ctx) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    cookies: { keys: ["recall-e2e-oidc-cookie-key-0123456789"] },
  });

  const interaction = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const details = await provider.interactionDetails(req, res);
    if (req.method === "POST" && path.endsWith("/login")) {
      const form = await readForm(req);
      const email = (form.get("email") ?? "").trim().toLowerCase();
      const accountId = `${form.get("verified") ? "verified" : "unverified"}:${email}`;
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(loginPage(details.uid));
  };

  const callback = provider.callback();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (!path.startsWith("/interaction/")) {
      callback(req, res);
      return;
    }
    interaction(req, res, path).catch((e: unknown) => {
      console.error("[e2e-oidc]", e);
      if (!res.headersSent) res.writeHead(400, { "content-type": "text/plain" });
      res.end(e instanceof Error ? e.message : "error");
    });
  });
  await new Promise<void>((resolve) => server.listen(OIDC_PORT, "127.0.0.1", resolve));
  console.log(`listening ${issuer}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.once(signal, () => server.close(() => process.exit(0)));
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
