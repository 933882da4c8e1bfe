import { userInstructionsSchema } from "@/lib/api/instruction-schemas";
import { getUserInstructions, updateUserInstructions } from "@/lib/db/instructions";
import { readJson, route } from "@/lib/http";

/** The caller's instructions: `{ aboutMe, howToAnswer }` ("" when unset). */
export const GET = route("user", async ({ user }) => {
  return Response.json(await getUserInstructions({ userId: user.id }));
});

/**
 * `{ aboutMe?, howToAnswer? }` (each at most 4 000 characters; "" or null clears) → the instructions now; sent from
 * the next turn on. 422 `validation_failed` beyond the limit, nothing stored.
 */
export const PATCH = route("user", async ({ req, user }) => {
  const instructions = await readJson(req, userInstructionsSchema);
  return Response.json(await updateUserInstructions({ userId: user.id, instructions }));
});
