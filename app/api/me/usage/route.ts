import { usageByDay, windowStart } from "@/lib/db/usage";
import { route } from "@/lib/http";

/** The signed-in user's token usage over the last 30 days → `[{ day, model, promptTokens, completionTokens, answers }]`. */
export const GET = route("user", async ({ user }) => {
  const rows = await usageByDay({ userId: user.id, since: windowStart(30) });
  return Response.json(rows, { headers: { "cache-control": "no-store" } });
});
