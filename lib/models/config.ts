import { z } from "zod";

// What an administrator (POST /api/admin/models) or the deployment (MODELS_CONFIG) says about one model:
// an OpenAI-compatible provider (OpenAI, Ollama, vLLM, LM Studio, DeepSeek…) and one of its model ids.

const text = (max: number, what: string) =>
  z
    .string({ message: `${what} must be a string` })
    .trim()
    .min(1, `${what} cannot be empty`)
    .max(max, `${what} can have at most ${max} characters`);

export const modelInput = z.object({
  name: text(100, "name"),
  provider: text(100, "provider"),
  baseUrl: z
    .url({ message: "baseUrl must be an http(s) URL", protocol: /^https?$/ })
    .max(500)
    .nullable()
    .optional(),
  // Write-only: stored sealed, never returned. Omitted on PATCH keeps the stored one; null removes it.
  apiKey: z.string().min(1, "apiKey cannot be empty").max(1000).nullable().optional(),
  modelId: text(200, "modelId"),
  contextTokens: z
    .number({ message: "contextTokens must be an integer from 2000 to 10000000" })
    .int("contextTokens must be an integer from 2000 to 10000000")
    .min(2000, "contextTokens must be an integer from 2000 to 10000000")
    .max(10_000_000, "contextTokens must be an integer from 2000 to 10000000")
    .default(128_000),
  vision: z.boolean({ message: "vision must be true or false" }).default(false),
  tools: z.boolean({ message: "tools must be true or false" }).default(true),
  enabled: z.boolean({ message: "enabled must be true or false" }).default(true),
});
export type ModelInput = z.infer<typeof modelInput>;

export const modelPatch = modelInput.partial().refine((p) => Object.keys(p).length > 0, {
  message: "Send at least one field to change.",
});
export type ModelPatch = z.infer<typeof modelPatch>;

/** MODELS_CONFIG: the same fields plus a stable `id` (what conversations and /v1 requests name). */
export const modelsConfig = z
  .array(
    modelInput.extend({
      id: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, "id must be letters, digits, . _ : - (at most 100)"),
    }),
  )
  .superRefine((list, ctx) => {
    const ids = new Set<string>();
    const names = new Set<string>();
    list.forEach((m, i) => {
      if (ids.has(m.id)) ctx.addIssue({ code: "custom", path: [i, "id"], message: `duplicate id ${m.id}` });
      if (names.has(m.name))
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate name ${m.name}` });
      ids.add(m.id);
      names.add(m.name);
    });
  });
