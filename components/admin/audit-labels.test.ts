import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "@/lib/i18n/config";
import { i18nFor } from "@/lib/i18n/testing";

// The audit log names each action in words: every action code that lib/ writes to AuditLog needs a label in
// every locale, or the page falls back to the raw code.

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The `area.verb` string literals of every lib/ file that writes the audit log. */
function writtenActions(): string[] {
  const actions = new Set<string>();
  for (const file of sourceFiles(path.resolve(__dirname, "../../lib"))) {
    const text = readFileSync(file, "utf8");
    if (!/auditLog\.create/.test(text)) continue;
    for (const m of text.matchAll(/"([a-z_]+\.[a-z_]+)"/g)) actions.add(m[1] as string);
  }
  return [...actions].sort();
}

describe("audit log labels", () => {
  const actions = writtenActions();

  it("finds the actions the data layer writes", () => {
    expect(actions).toEqual(
      expect.arrayContaining([
        "session.delete",
        "memory.delete",
        "user.demote",
        "data.import",
        "mcp_server.create",
      ]),
    );
  });

  for (const locale of LOCALES) {
    it(`names every written action in ${locale}`, async () => {
      const t = (await i18nFor(locale)).t("admin");
      const missing = "\u0000missing";
      const unnamed = actions.filter((a) => t.dynamic(`audit.actions.${a}`, missing) === missing);
      expect(unnamed).toEqual([]);
    });
  }
});
