import { spawn } from "node:child_process";
import path from "node:path";
import { sourceState, writeBuildStamp } from "./lib/build-stamp";
import { ROOT } from "./lib/paths";

// npm run build: `next build`, then a record of the source it was built from (.next/recall-build.json), which
// npm run bench checks. The source state is taken before the build starts, so an edit made during the build makes
// the record stale rather than wrong. Also used by scripts/e2e.ts.

export async function buildApp(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const state = sourceState();
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(path.join(ROOT, "node_modules", ".bin", "next"), ["build"], {
      cwd: ROOT,
      env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "inherit",
    });
    child.once("error", reject);
    child.once("close", (c) => resolve(c ?? 1));
  });
  if (code === 0) writeBuildStamp(state);
  return code;
}

if (require.main === module) {
  buildApp().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
