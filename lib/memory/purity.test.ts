import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// lib/memory must stay pure: relative imports, plus type-only imports from the OpenAI SDK.
const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"));

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
    expect(text).not.toMatch(/\b(fetch|process\.env|require)\s*\(/);
  });
});
