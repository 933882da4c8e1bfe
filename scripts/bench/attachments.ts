import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { toModelImage } from "@/lib/attachments/model-image";
import { withDatabase } from "../lib/database-url";
import { createDatabase, dropDatabase, migrateDatabase, redactUrl } from "../lib/migrate";
import { BenchError, Client } from "./http";
import { type Inspector, openInspector } from "./inspect";
import { turnContent } from "./plan";
import { fmtMs, table, verdict } from "./report";
import { assertBuilt, serverEnv, startServer } from "./server";
import { round, type Summary, summarize } from "./stats";

// W7: a turn in a conversation whose memory window holds 4 images against a text-only turn, over HTTP,
// interleaved. The images are resolved to data only for the model call, so the memory, context and commit path
// costs the same; what remains is handing the 4 images to the (offline) model, at the model's working resolution
// (lib/attachments/model-image.ts), scaled once per image and then served from the process's cache.
//
//   npm run bench -- --attachments [--db sqlite|postgres] [--turns N]   W7 alone (its own database and server)
//   npm run bench                                                      W7 runs after W5 on the main server

export const W7_IMAGES = 4;
export const W7_TARGET_RATIO = 1.2;

/** The pictures measured: screenshots (the common case in a chat about work) and phone photos. */
export const W7_KINDS = {
  screenshots: { label: "1280 × 800 PNG screenshots", width: 1280, height: 800, type: "image/png" },
  photos: { label: "1600 × 1200 JPEG photos", width: 1600, height: 1200, type: "image/jpeg" },
} as const;
export type W7Kind = keyof typeof W7_KINDS;

export interface W7Row {
  kind: W7Kind;
  turns: number;
  images: number;
  imageBytes: number;
  /**
   * Bytes of the 4 images as the model gets them, before base64 (computed here with the server's own
   * lib/attachments/model-image.ts from the uploaded files; the server starts from its re-encoded copy, within a
   * few per cent of this).
   */
  sentBytes: number;
  /** Images the image conversation's stored memory held (as references) when measured. */
  imagesInWindow: number;
  textOnly: Summary;
  withImages: Summary;
  /** median(with images) / median(text only). */
  ratio: number;
}

export interface W7Result {
  rows: W7Row[];
}

/** A screenshot-like PNG (flat panels and text-like stripes) or a photo-like JPEG (a noisy, blurred field). */
async function picture(kind: W7Kind, seed: number): Promise<Buffer> {
  const { width, height } = W7_KINDS[kind];
  if (kind === "screenshots") {
    const stripes = Array.from(
      { length: 40 },
      (_, i) =>
        `<rect x="${40 + ((i * 37 + seed * 11) % 200)}" y="${20 + i * 19}" width="${300 + ((i * 53) % 600)}" height="8" fill="#${(0x333333 + i * 0x010203 + seed).toString(16).slice(-6)}"/>`,
    ).join("");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f4f5"/><rect width="260" height="100%" fill="#e4e4e7"/>${stripes}</svg>`;
    return sharp(Buffer.from(svg)).png().toBuffer();
  }
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 120 + seed * 10, sigma: 18 },
    },
  })
    .blur(1.2)
    .png()
    .toBuffer();
  return sharp(noise).jpeg({ quality: 85 }).toBuffer();
}

async function newSession(client: Client, title: string): Promise<string> {
  const { data } = await client.json<{ session: { id: string } }>("POST", "/api/sessions", { title }, 201);
  return data.session.id;
}

async function imagesInWindow(inspector: Inspector | null, sessionId: string): Promise<number> {
  if (!inspector) return -1;
  const [row] = await inspector.all<{ items: unknown }>(
    `SELECT "items" FROM "MemorySnapshot" WHERE "sessionId" = ?`,
    [sessionId],
  );
  const text = typeof row?.items === "string" ? row.items : JSON.stringify(row?.items ?? []);
  return (text.match(/attachment:[A-Za-z0-9_-]+\?w=/g) ?? []).length;
}

/**
 * For each measured pair, two fresh conversations of the same length: one of text only, one whose 4 user messages
 * each carried a picture (all within the default window of 20). Then one text turn in each, alternating which goes
 * first; the medians are compared. Once for screenshots and once for photos.
 */
export async function runW7(client: Client, inspector: Inspector | null, turns: number): Promise<W7Result> {
  const rows: W7Row[] = [];
  for (const kind of Object.keys(W7_KINDS) as W7Kind[])
    rows.push(await runKind(client, inspector, turns, kind));
  return { rows };
}

async function runKind(
  client: Client,
  inspector: Inspector | null,
  turns: number,
  kind: W7Kind,
): Promise<W7Row> {
  const { type } = W7_KINDS[kind];
  const pictures = await Promise.all(Array.from({ length: W7_IMAGES }, (_, i) => picture(kind, i)));
  const ext = type === "image/png" ? "png" : "jpg";
  let sentBytes = 0;
  for (const data of pictures) sentBytes += (await toModelImage(data))?.data.byteLength ?? data.byteLength;
  const textMs: number[] = [];
  const imageMs: number[] = [];
  let inWindow = 0;
  let imageBytes = 0;
  for (let i = 0; i < turns + 1; i++) {
    const text = await newSession(client, `W7 text only ${i}`);
    const withImages = await newSession(client, `W7 ${kind} ${i}`);
    imageBytes = 0;
    for (const [n, data] of pictures.entries()) {
      const uploaded = await client.upload(`picture-${n}.${ext}`, data, type);
      imageBytes += uploaded.bytes;
      await client.turn(withImages, turnContent("W7 setup", n), { attachments: [uploaded.id] });
      await client.turn(text, turnContent("W7 setup", n));
    }
    const content = turnContent("W7", i);
    const measure = async (sessionId: string) => (await client.turn(sessionId, content)).totalMs;
    const [first, second] = i % 2 === 0 ? [text, withImages] : [withImages, text];
    const a = await measure(first);
    const b = await measure(second);
    // The first pair warms the paths up (sharp, the upload route, the image reads) and is not counted.
    if (i > 0) {
      textMs.push(first === text ? a : b);
      imageMs.push(first === text ? b : a);
      if (i === turns) inWindow = await imagesInWindow(inspector, withImages);
    }
    // Measured: the pair goes, with its files. Uploads are limited per user and hour, counted from the rows
    // (lib/attachments/upload.ts), and 30 pairs of 4 pictures of each kind would pass that limit.
    for (const id of [text, withImages])
      await client.json("DELETE", `/api/sessions/${encodeURIComponent(id)}`);
  }
  const textOnly = summarize(textMs);
  const withImages = summarize(imageMs);
  return {
    kind,
    turns,
    images: W7_IMAGES,
    imageBytes,
    sentBytes,
    imagesInWindow: inWindow,
    textOnly,
    withImages,
    ratio: withImages.median / textOnly.median,
  };
}

export function renderW7(w: W7Result): string[] {
  return [
    `W7 a turn whose memory window holds ${W7_IMAGES} images vs a text-only turn of the same length, interleaved (the images are stored as references and read only for the model call, which carries them at the model's working resolution)`,
    table(
      [
        "images in the window",
        "stored size",
        "sent to the model",
        "in window",
        "turns",
        "text only",
        "with images",
        "p90",
        "ratio",
        "target",
        "",
      ],
      w.rows.map((r) => [
        W7_KINDS[r.kind].label,
        `${round(r.imageBytes / 1024)} KiB`,
        `${round(r.sentBytes / 1024)} KiB`,
        r.imagesInWindow < 0 ? "—" : r.imagesInWindow,
        r.turns,
        fmtMs(r.textOnly.median),
        fmtMs(r.withImages.median),
        fmtMs(r.withImages.p90),
        `${round(r.ratio)}×`,
        `≤ ${W7_TARGET_RATIO}`,
        verdict(w7RowPass(r)),
      ]),
    ),
  ];
}

export const w7RowPass = (r: W7Row) => r.ratio <= W7_TARGET_RATIO && r.imagesInWindow !== 0;
export const w7Pass = (w: W7Result) => w.rows.every(w7RowPass);

/** `npm run bench -- --attachments`: W7 alone, on a database and server of its own. */
export async function runAttachmentsBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      attachments: { type: "boolean" },
      db: { type: "string", default: "sqlite" },
      turns: { type: "string", default: "30" },
    },
    strict: false,
  });
  const log = (m: string) => console.log(`bench: ${m}`);
  assertBuilt(log);
  const turns = Number(values.turns);
  if (!Number.isInteger(turns) || turns < 1) throw new BenchError("--turns must be a positive integer");
  let url: string;
  let cleanup: () => Promise<void>;
  if (values.db === "postgres" || values.db === "postgresql") {
    url = withDatabase(
      process.env.TEST_POSTGRES_URL || "postgresql://postgres@127.0.0.1:5432/postgres",
      `recall_bench_${randomBytes(5).toString("hex")}`,
    );
    await createDatabase(url);
    cleanup = () => dropDatabase(url);
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "recall-bench-"));
    url = `file:${path.join(dir, "bench.db")}`;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  log(`W7 alone on ${redactUrl(url)}`);
  const server = await (async () => {
    await migrateDatabase(url);
    return startServer(serverEnv({ DATABASE_URL: url, AUTH_SECRET: randomBytes(32).toString("base64url") }));
  })();
  const inspector = await openInspector(url);
  try {
    const client = new Client(server.url, "w7");
    const email = `w7-${randomBytes(4).toString("hex")}@bench.recall.test`;
    const password = randomBytes(12).toString("base64url");
    await client.json("POST", "/api/register", { email, password, name: "W7" }, 201);
    await client.signIn(email, password);
    const warmup = await newSession(client, "warm-up");
    for (let i = 0; i < 30; i++) await client.turn(warmup, turnContent("Warm-up", i));
    const w7 = await runW7(client, inspector, turns);
    console.log(`\n${renderW7(w7).join("\n")}\n`);
    return w7Pass(w7) ? 0 : 1;
  } catch (e) {
    console.error(`--- last output of the server:\n${server.output()}`);
    throw e;
  } finally {
    await inspector.close();
    await server.stop();
    await cleanup();
  }
}
