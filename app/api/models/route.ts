import { route } from "@/lib/http";
import { listUsableModels, publicModel } from "@/lib/models/registry";

/** The models a conversation may pick: `[{ id, name, provider, contextTokens, vision, tools }]`, enabled only. */
export const GET = route("user", async () => Response.json((await listUsableModels()).map(publicModel)));
