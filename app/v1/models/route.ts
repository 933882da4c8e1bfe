import { listModels } from "@/lib/api/models";
import { v1Route } from "@/lib/api/v1-route";

export const dynamic = "force-dynamic";

/** OpenAI's model list: the one model Recall is configured with. */
export const GET = v1Route(async () => Response.json(listModels()));
