import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EnvError, parseEnv } from "@/lib/env";

// parseEnv for tests: only the variables given, and a fresh AUTH_SECRET_FILE each time so no test reads another's
// generated secret (or the developer's).

/** A path in a new temporary folder, where parseEnv may write the secret it generates. */
export const secretFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "recall-env-")), "secret");

export const parseTestEnv = (vars: Record<string, string | undefined>) =>
  parseEnv({ AUTH_SECRET_FILE: secretFile(), ...vars });

/** The issues parseEnv refuses `vars` with; fails when it accepts them. */
export function envIssues(vars: Record<string, string>): string[] {
  try {
    parseTestEnv(vars);
  } catch (e) {
    if (e instanceof EnvError) return e.issues;
    throw e;
  }
  throw new Error("expected an EnvError");
}
