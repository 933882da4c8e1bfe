import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_V8_FLAGS, serverNodeOptions } from "./node-options";
import { ROOT } from "./paths";

describe("the servers' V8 flags", () => {
  it("come first, so that the caller's own NODE_OPTIONS keep their say", () => {
    expect(serverNodeOptions(undefined)).toBe("--max-semi-space-size=32");
    expect(serverNodeOptions(" --require /x/probe.cjs  --max-semi-space-size=64")).toBe(
      "--max-semi-space-size=32 --require /x/probe.cjs --max-semi-space-size=64",
    );
  });

  it("are the ones npm start passes", () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<
      string,
      string
    >;
    for (const flag of SERVER_V8_FLAGS) expect(scripts.start).toContain(flag);
  });

  it("are accepted by this Node.js in NODE_OPTIONS (a flag Node refuses there stops every server from starting)", () => {
    const out = execFileSync(process.execPath, ["-e", "process.stdout.write('ok')"], {
      env: { ...process.env, NODE_OPTIONS: serverNodeOptions(undefined) },
      encoding: "utf8",
    });
    expect(out).toBe("ok");
  });
});
