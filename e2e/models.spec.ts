import http from "node:http";
import type { AddressInfo } from "node:net";
import { expectNoAxeViolations } from "./a11y";
import { ADMIN, expect, expectNoSidewaysScroll, MAIN_URL, test } from "./fixtures";

// Several models (issue 25 item 2): two OpenAI-compatible servers started here, added by the admin, picked in the
// header; each answer says which model wrote it, after a reload too, and "Regenerate with…" writes a new version
// with the other model. The offline model stays listed. Tagged @pg: it also runs on PostgreSQL (the registry, the
// conversation's model and each version's model are rows).

interface FakeServer {
  url: string;
  close: () => Promise<void>;
}

/** A loopback /v1/chat/completions that streams "Answer from <label>." with usage. */
async function startFakeModel(label: string): Promise<FakeServer> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found"}}');
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const head = { id: `c-${label}`, object: "chat.completion.chunk", created: 0, model: label };
      const send = (body: unknown) => res.write(`data: ${JSON.stringify(body)}\n\n`);
      for (const piece of ["Answer ", "from ", `${label}.`])
        send({ ...head, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      send({ ...head, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
      send({ ...head, choices: [], usage: { prompt_tokens: 120, completion_tokens: 45, total_tokens: 165 } });
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test("the picker switches models, answers name their model after a reload, regenerate with another model @pg", async ({
  page,
  user,
  chat,
  apiAs,
}) => {
  void user;
  const tag = Date.now().toString(36);
  const [a, b] = await Promise.all([startFakeModel("A"), startFakeModel("B")]);
  const admin = await apiAs(ADMIN);
  const added: string[] = [];
  try {
    for (const [server, name] of [
      [a, `Fake A ${tag}`],
      [b, `Fake B ${tag}`],
    ] as const) {
      const res = await admin.post("/api/admin/models", {
        data: {
          name,
          provider: "e2e",
          baseUrl: server.url,
          apiKey: "e2e-key",
          modelId: "fake",
          tools: false,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      added.push(((await res.json()) as { model: { id: string } }).model.id);
    }

    const created = await page.request.post("/api/sessions", { data: { title: "Models" } });
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;
    await chat.goto(sessionId);
    const picker = page.getByTestId("model-picker");
    await expect(picker.locator("option")).toHaveCount(3); // the offline model stays listed
    const patched = page.waitForResponse(
      (r) => r.url().includes(`/api/sessions/${sessionId}`) && r.request().method() === "PATCH",
    );
    await picker.selectOption({ label: `Fake A ${tag}` });
    expect((await patched).status()).toBe(200);

    const answer = await chat.send("Who answers?");
    expect(answer).toEqual({ text: "Answer from A.", status: "complete" });
    const meta = chat.assistantItems.last().getByTestId("answer-meta");
    await expect(meta).toHaveText(`Fake A ${tag} · 120 → 45 tokens`);

    await page.reload();
    await expect(chat.assistantItems.last().getByTestId("answer-meta")).toHaveText(
      `Fake A ${tag} · 120 → 45 tokens`,
    );
    await expect(page.getByTestId("model-picker")).toHaveValue(added[0] as string);

    await chat.assistantItems.last().getByTestId("message-regenerate-with").click();
    await page
      .getByTestId("regenerate-with-model")
      .filter({ hasText: `Fake B ${tag}` })
      .click();
    const last = chat.assistantItems.last();
    await expect(last.getByTestId("message-text")).toHaveText("Answer from B.");
    await expect(last).toHaveAttribute("data-status", "complete");
    await expect(last.getByTestId("answer-meta")).toHaveText(`Fake B ${tag} · 120 → 45 tokens`);
    await expect(last.getByTestId("answer-meta")).toHaveAttribute("data-model", added[1] as string);

    await page.reload();
    const reloaded = chat.assistantItems.last();
    await expect(reloaded.getByTestId("answer-meta")).toHaveText(`Fake B ${tag} · 120 → 45 tokens`);
    await expect(reloaded.getByTestId("message-text")).toHaveText("Answer from B.");
  } finally {
    for (const id of added) await admin.delete(`/api/admin/models/${id}`);
    await Promise.all([a.close(), b.close()]);
  }
});

test("the admin adds, disables and deletes a model on /admin/models; axe-clean light and dark, fits 390 px", async ({
  pageAs,
  apiAs,
  user,
}) => {
  const name = `Form model ${Date.now().toString(36)}`;
  const listed = async () => {
    const res = await (await apiAs(user)).get("/api/models");
    expect(res.status()).toBe(200);
    return ((await res.json()) as { name: string }[]).map((m) => m.name);
  };
  const admin = await pageAs(ADMIN);
  await admin.goto("/admin/models");
  await expect(admin.getByTestId("admin-models-title")).toBeVisible();
  await admin.getByTestId("add-model").click();
  const form = admin.getByTestId("model-form");
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Provider", { exact: true }).fill("e2e");
  await form.getByLabel("Base URL (OpenAI-compatible, …/v1)").fill("http://127.0.0.1:9/v1");
  await form.getByLabel("API key", { exact: true }).fill("e2e-key");
  await form.getByLabel("Model id at the provider").fill("fake");
  for (const theme of ["light", "dark"]) {
    // The open form is checked in both themes without a reload (which would close it).
    await admin.evaluate((t) => {
      document.documentElement.classList.remove("light", "dark", "system");
      document.documentElement.classList.add(t);
    }, theme);
    await expectNoAxeViolations(admin);
  }
  await form.getByTestId("model-save").click();
  const row = admin.getByTestId("model-row").filter({ hasText: name });
  await expect(row).toContainText("e2e · fake · 128,000 · on · key stored");
  expect(await listed()).toContain(name);

  await row.getByTestId("model-toggle").click();
  await expect(row).toContainText("· off ·");
  expect(await listed()).not.toContain(name);

  for (const theme of ["light", "dark"]) {
    await admin.context().addCookies([{ name: "recall-theme", value: theme, url: MAIN_URL }]);
    await admin.reload();
    await expect(row).toBeVisible();
    await expectNoAxeViolations(admin);
  }
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.reload();
  await expect(row).toBeVisible();
  await expectNoSidewaysScroll(admin, "/admin/models");

  // Deleted only after the confirmation.
  await row.getByTestId("model-delete").click();
  const dialog = admin.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(`Delete ${name}?`);
  await dialog.getByTestId("confirm-button").click();
  await expect(row).toHaveCount(0);
  await admin.reload();
  await expect(admin.getByTestId("model-row").filter({ hasText: name })).toHaveCount(0);
});
