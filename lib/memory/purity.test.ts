import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// lib/memory must stay pure: relative imports, plus type-only imports from the OpenAI SDK; no environment, no
// network, no code loaded at run time.
const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));

/** Any use of `process` (process.env.X, process["env"], { env } = process), globalThis, fetch(, require(, import(. */
const IMPURE = /\bprocess\b|\bglobalThis\b|\b(fetch|require)\s*\(|\bimport\s*\(/;

/** The code without its comments, so prose may say "process" or "fetch (". */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/.*$/gm, "$1");
}

describe("the purity check itself", () => {
  it.each([
    "const key = process.env.OPENAI_API_KEY;",
    'const key = process.env["OPENAI_API_KEY"];',
    "const { env } = process;",
    'const res = await fetch("https://example.com");',
    "await fetch (url)",
    "globalThis.fetch(url)",
    'const fs = require("node:fs");',
    'const fs = await import("node:fs");',
    'export const load = () => import ("./x");',
  ])("catches %s", (line) => {
    expect(code(line)).toMatch(IMPURE);
  });

  it.each([
    'import type { ChatCompletionMessageParam } from "openai/resources";',
    "export { fold } from './snapshot';",
    "const prefetch = items.filter((i) => i.processed);",
    "if (requirement(items)) preprocess(items);",
    "// we process items here; never fetch (it is pure)",
    "/* process.env is read by lib/env.ts */ const x = 1;",
  ])("lets %s through", (line) => {
    expect(code(line)).not.toMatch(IMPURE);
  });
});

describe("lib/memory purity", () => {
  it("has sources to check", () => {
    expect(sources).toContain("policies.ts");
  });

  it.each(sources)("%s imports only lib/memory and openai types", (file) => {
    const text = readFileSync(join(dir, file), "utf8");
    const imports = [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/gms)];
    for (const [statement, , typeOnly, source] of imports) {
      if (source?.startsWith("./")) continue;
      expect(source, statement).toMatch(/^openai\//);
      expect(typeOnly, statement).toBeDefined();
    }
    for (const [statement, source] of text.matchAll(/^import\s+["']([^"']+)["']/gm)) {
      expect(source, statement).toMatch(/^\.\//);
    }
    expect(code(text)).not.toMatch(IMPURE);
  });
});
