import { userSettingsSchema } from "@/lib/api/memory-schemas";
import { getUserSettings, updateUserSettings } from "@/lib/db/memories";
import { readJson, route } from "@/lib/http";

/** The caller's own settings: `{ longTermMemory, memoryExtraction }`. */
export const GET = route("user", async ({ user }) => {
  return Response.json(await getUserSettings({ userId: user.id }));
});

/** `{ longTermMemory?: boolean, memoryExtraction?: "off" | "suggest" | "auto" }` → the settings now; from the next turn. */
export const PATCH = route("user", async ({ req, user }) => {
  const settings = await readJson(req, userSettingsSchema);
  return Response.json(await updateUserSettings({ userId: user.id, settings }));
});
