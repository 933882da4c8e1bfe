import sharp from "sharp";
import { type ChatPage, expect, test } from "./fixtures";

// Attachments: pictures go with a message, memory keeps them (two turns later the offline model names
// their original sizes from the line that comes with each image: a photo is sent at the model's working resolution,
// 1024 × 768, yet its 1600 × 1200 is known), a reload shows them again, and deleting the conversation deletes the
// files.
// Runs on the main server (npm run test:e2e -- e2e/attachments.spec.ts; E2E_PORT=3223 E2E_WINDOW_PORT=3224 keeps it
// off other runs' ports).

const WIDTH = 64;
const HEIGHT = 48;

async function pngFile(name = "garden.png") {
  const buffer = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: "#2a7f3b" } })
    .png()
    .toBuffer();
  return { name, mimeType: "image/png", buffer };
}

/** A photo larger than the model's working resolution (it is sent scaled to 1024 × 768). */
async function photoFile(name = "beach.jpg") {
  const buffer = await sharp({
    create: {
      width: 1600,
      height: 1200,
      channels: 3,
      background: "#6699cc",
      noise: { type: "gaussian", mean: 128, sigma: 20 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** Attaches files through the composer's file input and waits until each has uploaded. */
async function attach(chat: ChatPage, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await chat.page.getByTestId("attach-input").setInputFiles(files);
  const items = chat.page.getByTestId("composer-attachment");
  await expect(items).toHaveCount(files.length);
  for (const file of files) {
    await expect(items.and(chat.page.locator(`[data-name="${file.name}"]`))).not.toHaveAttribute(
      "data-status",
      "uploading",
    );
  }
}

test.describe("attachments", () => {
  test("pictures are remembered two turns later, restored on reload, and deleted with their conversation @pg", async ({
    page,
    chat,
    user,
  }) => {
    void user;
    await chat.goto();
    await attach(chat, [await pngFile(), await photoFile()]);
    for (const item of await page.getByTestId("composer-attachment").all())
      await expect(item).toHaveAttribute("data-status", "ready");

    const first = await chat.send("Here are my garden and the beach");
    expect(first.status).toBe("complete");
    expect(first.text).toContain(
      `I see 2 images: a PNG image, ${WIDTH} × ${HEIGHT} pixels and a JPEG image, 1600 × 1200 pixels.`,
    );
    // Sent: the composer is empty again and the message shows the pictures.
    await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
    const userMessage = chat.items.first();
    await expect(userMessage.getByTestId("message-attachment")).toHaveCount(2);

    await chat.send("The weather is lovely today.");
    const third = await chat.send("What size were the pictures I sent?");
    expect(third.text).toBe(
      `The pictures you sent are: a PNG image, ${WIDTH} × ${HEIGHT} pixels and a JPEG image, 1600 × 1200 pixels.`,
    );

    // A reload restores the thumbnail from the stored message.
    await page.reload();
    await expect(chat.items.first().getByTestId("message-attachment")).toHaveCount(2);
    const thumbnail = chat.items.first().getByTestId("message-attachment-thumbnail").first();
    await expect(thumbnail).toBeVisible();
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    const id = await chat.items.first().getByTestId("message-attachment").first().getAttribute("data-id");
    expect(id).toBeTruthy();
    const file = await page.request.get(`/api/attachments/${id}`);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/png");
    expect(file.headers()["x-content-type-options"]).toBe("nosniff");

    // The viewer opens on the thumbnail, closes with Escape and gives focus back.
    const opener = chat.items.first().getByTestId("message-attachment").first();
    await opener.click();
    const viewer = page.getByTestId("attachment-viewer");
    await expect(viewer).toBeVisible();
    await expect(viewer.getByRole("img", { name: "garden.png" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(viewer).toBeHidden();
    await expect(opener).toBeFocused();

    // Deleting the conversation deletes the file.
    const sessionId = chat.sessionId();
    const deleted = await page.request.delete(`/api/sessions/${sessionId}`);
    expect(deleted.status()).toBe(200);
    expect((await deleted.json()).receipt.deleted).toMatchObject({ Attachment: 2 });
    expect((await page.request.get(`/api/attachments/${id}`)).status()).toBe(404);
    expect((await page.request.get(`/api/attachments/${id}?thumb=1`)).status()).toBe(404);
  });

  test("files are judged by their bytes, can be removed before sending, and another user gets 404", async ({
    page,
    chat,
    user,
    createUser,
    apiAs,
  }) => {
    void user;
    await chat.goto();
    const html = { name: "cat.png", mimeType: "image/png", buffer: Buffer.from("<!doctype html><p>hi</p>") };
    await chat.page.getByTestId("attach-input").setInputFiles([html]);
    const refused = page.getByTestId("composer-attachment");
    await expect(refused).toHaveAttribute("data-status", "failed");
    await expect(refused.getByTestId("attachment-error")).toContainText("HTML");
    await refused.getByTestId("attachment-remove").click();
    await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
    await expect(chat.input).toBeFocused();

    // A PNG named .txt is an image; removed before sending, it is gone from the server too.
    const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/attachments") && r.status() === 201);
    await attach(chat, [{ ...(await pngFile()), name: "notes.txt", mimeType: "text/plain" }]);
    const view = (await (await uploaded).json()) as { id: string; kind: string; name: string };
    expect(view).toMatchObject({ kind: "image", name: "notes.png" });
    const intruder = await apiAs(await createUser("intruder"));
    expect((await intruder.get(`/api/attachments/${view.id}`)).status()).toBe(404);
    expect((await page.request.get(`/api/attachments/${view.id}`)).status()).toBe(200);

    const removed = page.waitForResponse(
      (r) => r.request().method() === "DELETE" && r.url().includes(view.id),
    );
    await page.getByTestId("attachment-remove").click();
    expect((await removed).status()).toBe(204);
    expect((await page.request.get(`/api/attachments/${view.id}`)).status()).toBe(404);
    await expect(chat.sendButton).toBeDisabled();
  });
});
