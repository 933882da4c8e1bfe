import { describe, expect, it } from "vitest";
import { parseArgs } from "./e2e";

describe("npm run test:e2e arguments", () => {
  it("runs SQLite then PostgreSQL by default and hands the rest to Playwright", () => {
    expect(parseArgs(["e2e/chat.spec.ts", "--headed"])).toEqual({
      dbs: ["sqlite", "postgres"],
      rest: ["e2e/chat.spec.ts", "--headed"],
    });
  });

  it("takes --db x, --db=x or the E2E_DB fallback", () => {
    expect(parseArgs(["--db", "postgres", "--grep", "@pg"])).toEqual({
      dbs: ["postgres"],
      rest: ["--grep", "@pg"],
    });
    expect(parseArgs(["--db=sqlite"]).dbs).toEqual(["sqlite"]);
    expect(parseArgs([], "postgresql").dbs).toEqual(["postgres"]);
    expect(() => parseArgs(["--db", "mysql"])).toThrow(/--db must be sqlite, postgres or both/);
  });

  it("drops a bare -- (which would make Playwright ignore the file filter and run every spec)", () => {
    expect(parseArgs(["--db", "sqlite", "--", "e2e/sso.spec.ts"])).toEqual({
      dbs: ["sqlite"],
      rest: ["e2e/sso.spec.ts"],
    });
  });
});
