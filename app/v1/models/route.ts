import { listModels } from "@/lib/api/models";
import { v1Route } from "@/lib/api/v1-route";

export const dynamic = "force-dynamic";

/** OpenAI's model list: the models the key's user may use. */
export const GET = v1Route(async () => Response.json(await listModels()));
