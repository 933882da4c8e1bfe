import { describe, expect, it } from "vitest";
import { DEFAULT_IMAGE_TOKENS, imageTokens, tokenizerFor } from "@/lib/context";
import { EnvError } from "@/lib/env";
import { attachmentRef } from "@/lib/memory/attachments";
import { assertSameOrigin } from "@/lib/security/csrf";
import { parseTestEnv as parse } from "@/test/env";
import { attachedFiles, attachmentUrl, readAttachmentParts } from "./parts";
import { cleanName } from "./upload";

describe("cleanName", () => {
  it("keeps the user's name, gives an image the extension of what it is, and strips paths and controls", () => {
    expect(cleanName("notes.txt", "png")).toBe("notes.png");
    expect(cleanName("holiday.JPG", "jpeg")).toBe("holiday.JPG");
    expect(cleanName("holiday.jpeg", "jpeg")).toBe("holiday.jpeg");
    expect(cleanName("C:\\Users\\me\\cat.webp", "webp")).toBe("cat.webp");
    expect(cleanName("../../etc/passwd", null)).toBe("passwd");
    expect(cleanName("a\u0000b\nc.md", null)).toBe("ab c.md");
    expect(cleanName("", "gif")).toBe("image.gif");
    expect(cleanName("   ", null)).toBe("file.txt");
    expect(cleanName("..", null)).toBe("file.txt");
    expect(cleanName(".", "png")).toBe("image.png");
    expect(cleanName("..", "png")).toBe("image.png");
    expect(cleanName("...", null)).toBe("file.txt");
    expect(cleanName(".hidden.txt. ", null)).toBe("hidden.txt");
    expect(cleanName("a\u202egpj.exe", null)).toBe("agpj.exe");
    expect(cleanName("\u0001\u001f\u007f\u0085", null)).toBe("file.txt");
    expect(cleanName("x\ud800y.txt", null)).toBe("x\ufffdy.txt");
    const long = cleanName(`${"x".repeat(300)}.csv`, null);
    expect(long).toHaveLength(200);
    expect(long.endsWith(".csv")).toBe(true);
  });
});

describe("stored attachment parts", () => {
  it("read back what claimAttachments stores and skip anything malformed", () => {
    const parts = {
      imageUrls: ["attachment:a1?w=4&h=3"],
      attachments: [
        { id: "a1", kind: "image", name: "a.png", mime: "image/png", bytes: 70, width: 4, height: 3 },
        { id: "t1", kind: "text", name: "n.md", mime: "text/markdown", bytes: 5, text: "hello" },
        { id: "x", kind: "video", name: "v", mime: "video/mp4", bytes: 1 },
        "junk",
      ],
    };
    const read = readAttachmentParts(parts);
    expect(read.map((p) => p.id)).toEqual(["a1", "t1"]);
    expect(attachedFiles(read)).toEqual([{ name: "n.md", text: "hello" }]);
    expect(readAttachmentParts(null)).toEqual([]);
    expect(attachmentUrl("a1", { thumbnail: true })).toBe("/api/attachments/a1?thumb=1");
  });
});

describe("the token window counts images by OpenAI's rule, from the size the reference carries", () => {
  const tok = tokenizerFor("gpt-4o");
  const base = tok.countItem({ role: "user", text: "look" });

  it.each([
    [64, 48, 255],
    [1024, 1024, 765],
    [2048, 4096, 1105],
  ])("%i×%i → %i tokens", (width, height, tokens) => {
    expect(imageTokens({ width, height })).toBe(tokens);
    const item = {
      role: "user" as const,
      text: "look",
      imageUrls: [attachmentRef({ id: "a", width, height })],
    };
    expect(tok.countItem(item)).toBe(base + tokens);
  });

  it("counts an image of unknown size (a plain URL) at the default", () => {
    const item = { role: "user" as const, text: "look", imageUrls: ["https://example.test/a.png"] };
    expect(tok.countItem(item)).toBe(base + DEFAULT_IMAGE_TOKENS);
  });
});

describe("MAX_IMAGE_BYTES", () => {
  it("defaults to 10 MB, is read, and must be a positive integer", () => {
    expect(parse({}).MAX_IMAGE_BYTES).toBe(10 * 1024 * 1024);
    expect(parse({ MAX_IMAGE_BYTES: "2048" }).MAX_IMAGE_BYTES).toBe(2048);
    for (const bad of ["0", "-1", "1.5", "ten"]) {
      expect(() => parse({ MAX_IMAGE_BYTES: bad })).toThrow(EnvError);
    }
  });
});

describe("CSRF for uploads", () => {
  const policy = { allowedOrigins: [] };
  const post = (url: string, headers: Record<string, string>) =>
    new Request(url, { method: "POST", headers: { host: "127.0.0.1:3000", ...headers }, body: "x" });
  const multipart = { "content-type": "multipart/form-data; boundary=x" };

  it("lets multipart through to POST /api/attachments only, and only from an allowed origin", () => {
    const own = { origin: "http://127.0.0.1:3000", ...multipart };
    expect(() => assertSameOrigin(post("http://127.0.0.1:3000/api/attachments", own), policy)).not.toThrow();
    expect(() => assertSameOrigin(post("http://127.0.0.1:3000/api/sessions", own), policy)).toThrow(
      expect.objectContaining({ code: "csrf" }),
    );
    expect(() =>
      assertSameOrigin(
        post("http://127.0.0.1:3000/api/attachments", { origin: "https://evil.example", ...multipart }),
        policy,
      ),
    ).toThrow(expect.objectContaining({ code: "csrf" }));
    expect(() =>
      assertSameOrigin(post("http://127.0.0.1:3000/api/attachments", { ...multipart }), policy),
    ).toThrow(expect.objectContaining({ code: "csrf" }));
  });
});
