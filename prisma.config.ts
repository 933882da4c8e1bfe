import { defineConfig } from "prisma/config";

// Prisma 7 reads the datasource URL from here, not from the schema. `prisma generate` needs none; the
// migrations are applied by scripts/migrate.ts (the native schema engine cannot be downloaded here), so this
// file only names the schema and the migrations folder.
//
// Any existing path will do (the node binary here): it only stops the CLI from trying to download the native
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
