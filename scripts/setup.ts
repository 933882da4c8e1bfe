import { loadEnvConfig } from "@next/env";
import { ensureAdmin } from "./lib/ensure-admin";
import { migrateDatabase, redactUrl } from "./lib/migrate";
import { adminLines, box } from "./lib/ready-box";

// npm run setup: validates the configuration, applies migrations (creating the database when missing) and
// makes sure an administrator exists. Safe to run again: it changes nothing that is already in place.
// npm run demo calls setup() itself and prints the administrator's password once the server answers.

export interface SetupResult {
  admin: { email: string; generatedPassword?: string };
}

export async function setup(): Promise<SetupResult> {
  // The same .env files `next start` reads, so setup and the server agree on DATABASE_URL.
  loadEnvConfig(process.cwd());
  // Imported only now: lib/env.ts validates process.env when it is first loaded.
  const { env } = await import("@/lib/env");
  const { db } = await import("@/lib/db/client");
  const applied = await migrateDatabase(env.DATABASE_URL);
  console.log(
    `Database ${redactUrl(env.DATABASE_URL)}: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}.`,
  );

  try {
    // Messages written before search existed are indexed once (SQL alone cannot cut Chinese into terms).
    const { indexUnindexedMessages } = await import("@/lib/db/search");
    let indexed = 0;
    for (let afterId: string | undefined; ; ) {
      const batch = await indexUnindexedMessages({ afterId });
      if (batch.count === 0) break;
      indexed += batch.count;
      afterId = batch.lastId;
    }
    if (indexed) console.log(`Search: indexed ${indexed} earlier message(s).`);
    // Documents indexed before stems were indexed beside words get them, once (docs/decisions/017-search.md).
    const { restemLegacyDocs } = await import("@/lib/db/search");
    let restemmed = 0;
    for (let n = await restemLegacyDocs(); n > 0; n = await restemLegacyDocs()) restemmed += n;
    if (restemmed)
      console.log(`Search: indexed ${restemmed} message(s) again with the stems of their words.`);
    const result = await ensureAdmin(db, env);
    const how = {
      kept: "already set up; its password was printed when it was created",
      existing: "existing account",
      promoted: "existing account, promoted",
      created: "created",
    }[result.action];
    console.log(`Administrator: ${result.email} (${how}).`);
    return {
      admin: {
        email: result.email,
        ...(result.action === "created" && result.generatedPassword
          ? { generatedPassword: result.generatedPassword }
          : {}),
      },
    };
  } finally {
    await db.$disconnect();
  }
}

export const errorText = (e: unknown) => (e instanceof Error && e.name === "EnvError" ? e.message : e);

if (require.main === module) {
  setup().then(
    ({ admin }) => {
      console.log(
        "Serve with `npm start`, then open http://127.0.0.1:3000 and sign in (or create an account).",
      );
      const password = admin.generatedPassword;
      if (password) console.log(box(adminLines({ email: admin.email, password })));
      process.exit(0);
    },
    (e: unknown) => {
      console.error(errorText(e));
      process.exit(1);
    },
  );
}
