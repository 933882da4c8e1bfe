import { tokenizerFor } from "@/lib/context";
import { db } from "@/lib/db/client";
import { env } from "@/lib/env";

/**
 * Loads at server start what the first turn would otherwise load on a user's time: the model's tokenizer (its
 * encoding tables take a few hundred milliseconds to build, blocking the event loop) and the database client's
 * query compiler (~100 ms on the first query).
 */
export async function warmUp(): Promise<void> {
  tokenizerFor(env.model).countText("Recall is warming up.");
  await db.$queryRawUnsafe("SELECT 1");
}
