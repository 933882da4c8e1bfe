import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { POSTGRES_SCHEMA, ROOT } from "./lib/paths";
import { readSchema } from "./lib/schema";

// npm run db:generate (also the postinstall hook): derive prisma/postgresql/schema.prisma from
// prisma/schema.prisma, then generate both clients (lib/generated/sqlite, lib/generated/postgresql).
// Offline: prisma.config.ts sets PRISMA_SCHEMA_ENGINE_BINARY so the CLI downloads nothing.

function writeIfChanged(file: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(file, "utf8");
  } catch {}
  if (current === content) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

writeIfChanged(POSTGRES_SCHEMA, readSchema("postgresql"));

const prismaCli = path.join(
  path.dirname(createRequire(__filename).resolve("prisma/package.json")),
  "build",
  "index.js",
);
for (const schema of ["prisma/schema.prisma", path.relative(ROOT, POSTGRES_SCHEMA)]) {
  const result = spawnSync(process.execPath, [prismaCli, "generate", "--schema", schema], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
  });
  if (result.status !== 0) {
    console.error(`prisma generate failed for ${schema}`);
    process.exit(result.status ?? 1);
  }
}
