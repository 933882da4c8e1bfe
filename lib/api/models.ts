import "server-only";
import { env } from "@/lib/env";

// GET /v1/models: the configured model (env.model — OPENAI_MODEL, or the offline model's name), in OpenAI's list
// shape. `created` is not known for a configured model; 0 says so.

export function listModels() {
  return {
    object: "list",
    data: [
      {
        id: env.model,
        object: "model",
        created: 0,
        owned_by: env.offlineModel ? "recall-offline" : "recall",
      },
    ],
  };
}
