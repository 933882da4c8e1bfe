import "server-only";
import { env } from "@/lib/env";
import { databaseKind, db } from "./client";

export async function checkDatabase(): Promise<{ ok: boolean; kind: string; latencyMs: number }> {
  const started = performance.now();
  const kind = databaseKind(env.DATABASE_URL);
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return { ok: true, kind, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (e) {
    console.error("[health] database unreachable", e instanceof Error ? e.message : e);
    return { ok: false, kind, latencyMs: Math.round(performance.now() - started) };
  }
}
