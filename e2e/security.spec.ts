import { request as playwrightRequest } from "@playwright/test";
import { errorCode, expect, MAIN_URL, newCredentials, registerViaApi, signInViaApi, test } from "./fixtures";

// Safe to put on the internet: CSRF, body limit, headers, remote images, revocable sessions,
// sign-in and turn limits, errors that leak nothing. Runs against the main server (default settings).

const FOREIGN = "http://127.0.0.1:3999";
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

test.describe("headers", () => {
  test("every page carries a nonce CSP, frame-ancestors 'none', nosniff and a referrer policy", async ({
    page,
    user,
  }) => {
    expect(user.email).toBeTruthy();
    const nonces = new Set<string>();
    for (const path of ["/", "/login", "/register"]) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      const csp = res.headers()["content-security-policy"] ?? "";
      expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("img-src 'self' data: blob:");
      nonces.add(/'nonce-([^']+)'/.exec(csp)?.[1] ?? "");
      expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
      expect(res.headers()["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
      expect(res.headers()["x-frame-options"], path).toBe("DENY");
    }
    expect(nonces.size, "a fresh nonce per response").toBe(3);
    // The app still runs under the policy: the chat page hydrates and is usable.
    const errors: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" && /Content Security Policy/i.test(m.text())) errors.push(m.text());
    });
    await page.goto("/");
    await expect(page.getByTestId("composer-input")).toBeEnabled();
    expect(errors).toEqual([]);
  });

  test("API responses carry nosniff and a deny-all CSP; HSTS only over HTTPS", async ({ request }) => {
    const res = await request.get("/api/health");
    expect(res.headers()["x-content-type-options"]).toBe("nosniff");
    expect(res.headers()["content-security-policy"]).toBe(API_CSP);
    expect(res.headers()["strict-transport-security"]).toBeUndefined();
    const https = await request.get("/api/health", { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers()["strict-transport-security"]).toContain("max-age=");
  });
});

test.describe("CSRF", () => {
  test("a write from a foreign or missing Origin, or as text/plain, is refused with 403 csrf", async ({
    page,
    user,
  }) => {
    expect(user.email).toBeTruthy();
    const foreign = await page.request.post("/api/sessions", {
      data: { title: "from elsewhere" },
      headers: { origin: FOREIGN },
    });
    expect(foreign.status()).toBe(403);
    expect(await errorCode(foreign)).toBe("csrf");

    const plain = await page.request.post("/api/sessions", {
      data: JSON.stringify({ title: "form post" }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status()).toBe(403);
    expect(await errorCode(plain)).toBe("csrf");

    // The same cookies, no Origin at all: a plain Node fetch (Playwright's contexts carry the tests' default one).
    const { cookies } = await page.context().storageState();
    const missing = await fetch(`${MAIN_URL}/api/sessions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
      },
      body: JSON.stringify({ title: "no origin" }),
    });
    expect(missing.status).toBe(403);
    expect(await errorCode(missing)).toBe("csrf");

    // Nothing was created by the refused requests; the app's own request still works.
    const list = (await (await page.request.get("/api/sessions")).json()) as { sessions: unknown[] };
    expect(list.sessions).toHaveLength(0);
    const ok = await page.request.post("/api/sessions", { data: { title: "mine" } });
    expect(ok.status()).toBe(201);
  });
});

test("an oversize body is refused with 413 JSON", async ({ request }) => {
  const big = JSON.stringify({ email: "a@b.c", name: "x", password: "y".repeat(2 * 1024 * 1024) });
  const res = await request.post("/api/register", {
    data: big,
    headers: { "content-type": "application/json" },
  });
  expect(res.status()).toBe(413);
  expect(await errorCode(res)).toBe("payload_too_large");
});

test("/v1 responses and attachment files carry the API CSP, sandbox included", async ({ page, user }) => {
  expect(user.email).toBeTruthy();
  const models = await page.request.get("/v1/models");
  expect(models.status()).toBe(401);
  expect(models.headers()["content-security-policy"]).toBe(API_CSP);
  const upload = await page.request.post("/api/attachments", {
    multipart: { file: { name: "note.txt", mimeType: "text/plain", buffer: Buffer.from("hello sandbox") } },
  });
  expect(upload.status()).toBe(201);
  const { id } = (await upload.json()) as { id: string };
  const file = await page.request.get(`/api/attachments/${id}`);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-security-policy"]).toBe(API_CSP);
});

test("a 5 MB body is answered with a readable 413 JSON, not a reset connection", async () => {
  const res = await fetch(`${MAIN_URL}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: MAIN_URL },
    body: JSON.stringify({ email: "big@example.test", name: "x", password: "y".repeat(5 * 1024 * 1024) }),
  });
  expect(res.status).toBe(413);
  expect(await errorCode(res)).toBe("payload_too_large");
});

test("a broken %-escape in the path of a request with a body is 400 JSON too", async ({ request }) => {
  const cases: [string, string][] = [
    ["PATCH", "/api/sessions/%E0%A4%A"],
    ["POST", "/api/sessions/%C0%AF/messages"],
    ["DELETE", "/api/memories/%E0%A4%A"],
    ["POST", "/v1/chat/%C0%AF"],
  ];
  for (const [method, path] of cases) {
    const res = await request.fetch(path, {
      method,
      data: JSON.stringify({ title: "x", content: "y" }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status(), `${method} ${path}`).toBe(400);
    expect(res.headers()["content-type"], path).toContain("application/json");
    expect(await errorCode(res), path).toBe("bad_request");
  }
});

test("a broken %-escape in the URL is a 4xx JSON, not a 500", async ({ request }) => {
  for (const path of ["/api/sessions/%E0%A4%A", "/c/%E0%A4%A"]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(400);
    expect(res.headers()["content-type"], path).toContain("application/json");
    expect(await errorCode(res), path).toBe("bad_request");
  }
});

test("an answer's remote image is not loaded: shown as a link, no request leaves the page", async ({
  page,
  user,
  chat,
}) => {
  expect(user.email).toBeTruthy();
  const remote: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("leak.example") || r.url().includes(":3998")) remote.push(r.url());
  });
  await chat.goto();
  const answer = await chat.send('Remember the phrase "![pixel](http://127.0.0.1:3998/leak.png?secret=1)"');
  expect(answer.status).toBe("complete");
  const link = page.getByTestId("markdown-image-link").last();
  await expect(link).toHaveText("Image: pixel");
  await expect(link).toHaveAttribute("href", "http://127.0.0.1:3998/leak.png?secret=1");
  expect(await page.locator("[data-testid=message-text] img").count()).toBe(0);
  // Nothing on the page refers to the address in a way that loads it; once the browser has painted the answer,
  // any load it would start has been requested.
  expect(
    await page.locator('[src*="3998"], [srcset*="3998"], [style*="3998"], [poster*="3998"]').count(),
  ).toBe(0);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect(remote).toEqual([]);
});

test("after sign-out the old session cookie is refused; the same user's other device stays signed in", async ({
  createUser,
}) => {
  const creds = await createUser("revoke");
  const device = () =>
    playwrightRequest.newContext({ baseURL: MAIN_URL, extraHTTPHeaders: { origin: MAIN_URL } });
  const ctx = await device();
  const phone = await device();
  await signInViaApi(ctx, creds);
  await signInViaApi(phone, creds);
  const saved = await ctx.storageState();
  expect((await ctx.get("/api/sessions")).status()).toBe(200);

  const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const out = await ctx.post("/api/auth/signout", { form: { csrfToken, json: "true" } });
  expect(out.ok()).toBe(true);
  await ctx.dispose();

  // A copy of the cookie taken before sign-out, replayed: refused, and next-auth will not refresh it either.
  const replay = await playwrightRequest.newContext({ baseURL: MAIN_URL, storageState: saved });
  const res = await replay.get("/api/sessions");
  expect(res.status()).toBe(401);
  const refreshed = (await (await replay.get("/api/auth/session")).json()) as { user?: unknown };
  expect(refreshed.user).toBeUndefined();
  await replay.dispose();

  // The other device's sign-in is untouched.
  expect((await phone.get("/api/sessions")).status()).toBe(200);
  await phone.dispose();
});

test("sign out everywhere, from the chat sidebar, signs out every device", async ({
  page,
  user,
  chat,
  apiAs,
}) => {
  const laptop = await apiAs(user);
  expect((await laptop.get("/api/sessions")).status()).toBe(200);
  await chat.goto();
  await page.getByTestId("sign-out-everywhere").click();
  await expect(page).toHaveURL(/\/login/);
  expect((await laptop.get("/api/sessions")).status()).toBe(401);
  expect((await page.request.get("/api/sessions")).status()).toBe(401);
});

test("the 11th wrong password for an account is 429 with Retry-After, even with the right one", async ({
  request,
  page,
  auth,
}) => {
  const creds = newCredentials("flooded");
  await registerViaApi(request, creds);
  const ctx = await playwrightRequest.newContext({ baseURL: MAIN_URL });
  const attempt = async (password: string) => {
    const { csrfToken } = (await (await ctx.get("/api/auth/csrf")).json()) as { csrfToken: string };
    return ctx.post("/api/auth/callback/credentials", {
      form: { email: creds.email, password, csrfToken, json: "true" },
    });
  };
  for (let i = 0; i < 10; i++) {
    const res = await attempt(`wrong-${i}`);
    expect(res.status(), `attempt ${i + 1}`).toBe(401);
  }
  const limited = await attempt(creds.password);
  expect(limited.status()).toBe(429);
  expect(Number(limited.headers()["retry-after"])).toBeGreaterThan(0);
  expect(await errorCode(limited)).toBe("rate_limited");
  await ctx.dispose();

  // The login form says so.
  await auth.login(creds);
  await expect(page.getByTestId("form-error")).toContainText("Too many failed sign-ins");
});

test("a flood of turns from one user meets 429 with Retry-After", async ({ page, user }) => {
  expect(user.email).toBeTruthy();
  const created = await page.request.post("/api/sessions", { data: { title: "flood" } });
  const { session } = (await created.json()) as { session: { id: string } };
  const statuses: number[] = [];
  let retryAfter: string | undefined;
  for (let i = 0; i < 62 && !retryAfter; i++) {
    const res = await page.request.post(`/api/sessions/${session.id}/messages`, {
      data: { content: `n${i}` },
    });
    statuses.push(res.status());
    if (res.status() === 429) {
      retryAfter = res.headers()["retry-after"];
      expect(await errorCode(res)).toBe("rate_limited");
    } else {
      await res.body();
    }
  }
  expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
  expect(statuses.at(-1)).toBe(429);
  expect(Number(retryAfter)).toBeGreaterThan(0);
});
