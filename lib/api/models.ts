import "server-only";
import { AppError } from "@/lib/errors";
import { listUsableModels, loadModelRegistry } from "@/lib/models/registry";

// GET /v1/models: the models the key's user may use (every enabled one; the deployment's default first), in
// OpenAI's list shape. `created` is not known for a configured model; 0 says so.

export async function listModels() {
  return {
    object: "list",
    data: (await listUsableModels()).map((m) => ({
      id: m.id,
      object: "model",
      created: 0,
      owned_by: m.provider,
    })),
  };
}

/** The turn override for a /v1 request's `model`: the id of an enabled model, else OpenAI's 404 model_not_found. */
export async function v1ModelOf(model: string | undefined): Promise<{ model?: string }> {
  if (model === undefined) return {};
  if (!(await loadModelRegistry()).entries.get(model)?.spec.enabled) {
    throw new AppError("not_found", `The model ${model} does not exist or you do not have access to it.`, {
      details: { openAiCode: "model_not_found" },
    });
  }
  return { model };
}
