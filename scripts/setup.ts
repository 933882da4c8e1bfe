import { randomBytes } from "node:crypto";
import { loadEnvConfig } from "@next/env";
import { hashPassword } from "@/lib/auth/password";
import { migrateDatabase, redactUrl } from "./lib/migrate";

// npm run setup: validates the configuration, applies migrations (creating the database when missing) and
// makes sure an administrator exists. Safe to run again: it changes nothing that is already in place.

async function main() {
  // The same .env files `next start` reads, so setup and the server agree on DATABASE_URL.
  loadEnvConfig(process.cwd());
  // Imported only now: lib/env.ts validates process.env when it is first loaded.
  const { env } = await import("@/lib/env");
  const { createPrismaClient } = await import("@/lib/db/client");
  const applied = await migrateDatabase(env.DATABASE_URL);
  console.log(
    `Database ${redactUrl(env.DATABASE_URL)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}.`,
  );

  const db = createPrismaClient(env.DATABASE_URL);
  try {
    const admin = await db.user.findFirst({ where: { role: "ADMIN" }, select: { email: true } });
    if (admin && !env.ADMIN_EMAIL) {
      console.log(
        `Administrator: ${admin.email} (already set up; its password was printed when it was created).`,
      );
      return;
    }
    const email = (env.ADMIN_EMAIL ?? "admin@recall.local").toLowerCase();
    const existing = await db.user.findUnique({ where: { email }, select: { id: true, role: true } });
    if (existing) {
      if (existing.role !== "ADMIN") await db.user.update({ where: { email }, data: { role: "ADMIN" } });
      console.log(
        `Administrator: ${email} (existing account${existing.role !== "ADMIN" ? ", promoted" : ""}).`,
      );
      return;
    }
    const generated = !env.ADMIN_PASSWORD;
    const password = env.ADMIN_PASSWORD ?? randomBytes(12).toString("base64url");
    await db.user.create({
      data: { email, name: env.ADMIN_NAME, role: "ADMIN", passwordHash: await hashPassword(password) },
    });
    console.log(`Administrator created: ${email}`);
    if (generated) {
      console.log(`  password: ${password}`);
      console.log("  (shown once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)");
    }
  } finally {
    await db.$disconnect();
  }
}

main().then(
  () => {
    console.log(
      "Serve with `npm start`, then open http://127.0.0.1:3000 and sign in (or create an account).",
    );
    process.exit(0);
  },
  (e: unknown) => {
    console.error(e instanceof Error && e.name === "EnvError" ? e.message : e);
    process.exit(1);
  },
);
