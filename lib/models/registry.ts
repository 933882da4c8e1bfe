import "server-only";
import {
  createLlmModel,
  deleteLlmModel,
  type LlmModelRow,
  listLlmModels,
  setSessionModelForUser,
  updateLlmModel,
} from "@/lib/db/models";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getModel, type Model } from "@/lib/llm";
import { createModel } from "@/lib/llm/client";
import { openSecret, sealSecret } from "@/lib/security/secret-box";
import { type ModelInput, type ModelPatch, modelInput } from "./config";

// The models a conversation may use (docs/decisions/032-models.md): the deployment's default (OPENAI_* or the
// built-in offline model), MODELS_CONFIG's (read-only) and the admin's. Read from the database at most once per
// TTL per instance, and again at once after a write here; turns read the cached list, never the table.

export interface ModelSpec {
  id: string;
  name: string;
  provider: string;
  baseUrl: string | null;
  modelId: string;
  contextTokens: number;
  vision: boolean;
  tools: boolean;
  enabled: boolean;
  source: "default" | "config" | "admin";
}

/** What clients see (GET /api/models): never the base URL or the key. */
export type PublicModel = Pick<ModelSpec, "id" | "name" | "provider" | "contextTokens" | "vision" | "tools">;

interface Entry {
  spec: ModelSpec;
  apiKey: string | null;
  /** Built on first use, once per registry load. */
  client?: Model;
}

export interface ModelRegistry {
  entries: Map<string, Entry>;
  defaultId: string;
}

const TTL_MS = 5000;
const box = () => ({ secret: env.AUTH_SECRET, purpose: "llm-models" });

function defaultEntry(): Entry {
  return {
    spec: {
      id: env.model,
      name: env.model,
      provider: env.offlineModel ? "Recall (offline)" : "OpenAI",
      baseUrl: env.OPENAI_BASE_URL ?? null,
      modelId: env.model,
      contextTokens: env.MODEL_CONTEXT_TOKENS,
      vision: true,
      tools: true,
      enabled: true,
      source: "default",
    },
    apiKey: null,
  };
}

function openKey(row: LlmModelRow): string | null {
  if (!row.apiKeySealed) return null;
  try {
    return openSecret(row.apiKeySealed, box());
  } catch (e) {
    console.warn(
      `[models] the API key of model ${row.id} cannot be opened (was AUTH_SECRET changed?): ${String(e)}`,
    );
    return null;
  }
}

function specOfRow(row: LlmModelRow): ModelSpec {
  const { apiKeySealed: _sealed, createdAt: _c, updatedAt: _u, ...rest } = row;
  return { ...rest, source: "admin" };
}

function build(rows: LlmModelRow[]): ModelRegistry {
  const entries = new Map<string, Entry>();
  const add = (e: Entry) => {
    if (!entries.has(e.spec.id)) entries.set(e.spec.id, e);
  };
  add(defaultEntry());
  for (const m of env.MODELS_CONFIG) {
    const { apiKey, ...rest } = m;
    add({ spec: { ...rest, baseUrl: m.baseUrl ?? null, source: "config" }, apiKey: apiKey ?? null });
  }
  for (const row of rows) add({ spec: specOfRow(row), apiKey: openKey(row) });
  return { entries, defaultId: env.model };
}

let cache: { at: number; registry: Promise<ModelRegistry> } | null = null;

/** The registry, from the cache when it is younger than the TTL. */
export function loadModelRegistry(): Promise<ModelRegistry> {
  if (!cache || Date.now() - cache.at > TTL_MS) {
    const registry = listLlmModels().then(build);
    cache = { at: Date.now(), registry };
    registry.catch(() => {
      if (cache?.registry === registry) cache = null;
    });
  }
  return cache.registry;
}

/** Drops the cache: the next read loads the table again (after an admin's write, and in tests). */
export function invalidateModelRegistry(): void {
  cache = null;
}

export const publicModel = ({
  id,
  name,
  provider,
  contextTokens,
  vision,
  tools,
}: ModelSpec): PublicModel => ({
  id,
  name,
  provider,
  contextTokens,
  vision,
  tools,
});

/**
 * Each answer with the name of the model that wrote it (`modelName`), when the registry knows its stored id (a
 * deleted model's answers keep only the id). Reads the cached registry: no statement per message.
 */
export async function withModelNames<M extends { role: string; model: string | null }>(
  messages: M[],
): Promise<(M & { modelName?: string })[]> {
  if (!messages.some((m) => m.role === "assistant" && m.model)) return messages;
  const { entries } = await loadModelRegistry();
  return messages.map((m) => {
    const name = m.role === "assistant" && m.model ? entries.get(m.model)?.spec.name : undefined;
    return name === undefined ? m : { ...m, modelName: name };
  });
}

/** The enabled models, the default first. */
export async function listUsableModels(): Promise<ModelSpec[]> {
  return [...(await loadModelRegistry()).entries.values()].map((e) => e.spec).filter((s) => s.enabled);
}

/** The enabled model with this id, or a 422 naming it. */
function requireUsableModel(registry: ModelRegistry, id: string): ModelSpec {
  const spec = registry.entries.get(id)?.spec;
  if (!spec?.enabled) {
    throw new AppError("validation_failed", `There is no model ${id} to use here.`, {
      details: [{ path: "model", message: spec ? "model is disabled" : "unknown model" }],
    });
  }
  return spec;
}

function clientOf(entry: Entry): Model {
  if (entry.spec.source === "default") return getModel();
  entry.client ??= createModel({
    // A provider without a key (Ollama, vLLM, LM Studio) still gets one: the SDK insists, and no key means offline.
    apiKey: entry.apiKey ?? "none",
    baseURL: entry.spec.baseUrl ?? undefined,
    model: entry.spec.modelId,
    style: env.OPENAI_API_STYLE,
    firstByteTimeoutMs: env.MODEL_FIRST_BYTE_TIMEOUT_MS,
    idleTimeoutMs: env.MODEL_IDLE_TIMEOUT_MS,
  });
  return entry.client;
}

/**
 * The model a turn runs with: the request's (422 when unknown or disabled), else the conversation's while it is
 * still usable, else the default.
 */
export function pickTurnModel(
  registry: ModelRegistry,
  { requested, stored }: { requested?: string | undefined; stored: string | null },
): { model: Model; spec: ModelSpec } {
  const id = requested
    ? requireUsableModel(registry, requested).id
    : stored && registry.entries.get(stored)?.spec.enabled
      ? stored
      : registry.defaultId;
  const entry = registry.entries.get(id) as Entry;
  return { model: clientOf(entry), spec: entry.spec };
}

// Admin writes.

/** A model as admins see it: every field but the key, and whether one is stored. */
export type AdminModelView = ModelSpec & { hasApiKey: boolean; readOnly: boolean };

export async function listAdminModels(): Promise<AdminModelView[]> {
  invalidateModelRegistry();
  return [...(await loadModelRegistry()).entries.values()].map(adminView);
}

const adminView = (e: Entry): AdminModelView => ({
  ...e.spec,
  hasApiKey: e.apiKey !== null,
  readOnly: e.spec.source !== "admin",
});

function assertIdsFree(name: string) {
  if (env.MODELS_CONFIG.some((m) => m.name === name) || name === env.model) {
    throw new AppError("conflict", `A model named ${name} is configured by the deployment.`, {
      details: [{ path: "name", message: "name is taken" }],
    });
  }
}

const sealed = (apiKey: string | null | undefined) => (apiKey ? sealSecret(apiKey, box()) : null);

export async function createAdminModel({ actorId, input }: { actorId: string; input: ModelInput }) {
  assertIdsFree(input.name);
  const { apiKey, ...rest } = input;
  const row = await createLlmModel({
    actorId,
    data: { ...rest, baseUrl: input.baseUrl ?? null, apiKeySealed: sealed(apiKey) },
  });
  invalidateModelRegistry();
  return adminView({ spec: specOfRow(row), apiKey: apiKey ?? null });
}

function editable(registry: ModelRegistry, id: string): Entry {
  const entry = registry.entries.get(id);
  if (!entry) throw new AppError("not_found", "There is no such model.");
  if (entry.spec.source !== "admin") {
    throw new AppError("conflict", "This model is configured by the deployment; change it there.");
  }
  return entry;
}

export async function updateAdminModel({
  actorId,
  id,
  patch,
}: {
  actorId: string;
  id: string;
  patch: ModelPatch;
}) {
  invalidateModelRegistry();
  const current = editable(await loadModelRegistry(), id);
  const { apiKey, ...rest } = patch;
  // The merged model must still be valid as a whole (a patch checks its fields one by one).
  const merged = modelInput.safeParse({ ...current.spec, ...rest });
  if (!merged.success) {
    throw new AppError("validation_failed", "The model's fields do not fit together.", {
      details: merged.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  if (patch.name !== undefined && patch.name !== current.spec.name) assertIdsFree(patch.name);
  const row = await updateLlmModel({
    actorId,
    id,
    data: { ...rest, ...(apiKey !== undefined ? { apiKeySealed: sealed(apiKey) } : {}) },
    fields: Object.keys(patch).sort(),
  });
  invalidateModelRegistry();
  return adminView({ spec: specOfRow(row), apiKey: apiKey === undefined ? current.apiKey : apiKey });
}

export async function deleteAdminModel({ actorId, id }: { actorId: string; id: string }) {
  invalidateModelRegistry();
  editable(await loadModelRegistry(), id);
  await deleteLlmModel({ actorId, id });
  invalidateModelRegistry();
}

/** Picks the conversation's model (null: the default): 422 for an unknown or disabled id, 404 when not the user's. */
export async function setConversationModel({
  sessionId,
  userId,
  model,
}: {
  sessionId: string;
  userId: string;
  model: string | null;
}): Promise<void> {
  if (model !== null) requireUsableModel(await loadModelRegistry(), model);
  if (!(await setSessionModelForUser({ sessionId, userId, model }))) {
    throw new AppError("not_found", "This conversation does not exist or is not yours.");
  }
}
