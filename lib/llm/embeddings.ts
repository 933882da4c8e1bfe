import OpenAI from "openai";
import { type Env, env } from "@/lib/env";
import { demoAnswer } from "./demo";
import { createModelFetch } from "./wire";

// The embeddings model recall fuses with its lexical ranking (docs/decisions/026-recall.md): an OpenAI-compatible
// /v1/embeddings, or, without OPENAI_API_KEY, the offline model's deterministic embeddings (lib/llm/wire.ts).

export interface EmbeddingsConfig {
  model: string;
  /** Absent: the offline embeddings, in process. */
  apiKey?: string;
  baseURL?: string;
}

/** What the environment asks for: null when EMBEDDINGS_MODEL is unset (recall is lexical only). */
export function embeddingsConfigFrom(e: Env): EmbeddingsConfig | null {
  if (!e.EMBEDDINGS_MODEL) return null;
  if (!e.OPENAI_API_KEY) return { model: e.EMBEDDINGS_MODEL };
  const baseURL = e.EMBEDDINGS_BASE_URL ?? e.OPENAI_BASE_URL;
  return { model: e.EMBEDDINGS_MODEL, apiKey: e.OPENAI_API_KEY, ...(baseURL ? { baseURL } : {}) };
}

export interface Embedder {
  model: string;
  /** One unit-length-or-not vector per text, in order. */
  embed(texts: string[]): Promise<number[][]>;
}

/** Texts sent per request: providers cap the inputs of one call (OpenAI: 2048). */
const BATCH = 64;
/** Characters of a text that are embedded: long texts are cut (models cap their input, ~8k tokens). */
const MAX_CHARS = 8000;

export function createEmbedder(config: EmbeddingsConfig): Embedder {
  const client = config.apiKey
    ? new OpenAI({
        apiKey: config.apiKey,
        ...(config.baseURL ? { baseURL: config.baseURL } : {}),
        timeout: 30_000,
      })
    : new OpenAI({
        apiKey: "offline",
        baseURL: "http://offline.recall.invalid/v1",
        fetch: createModelFetch(demoAnswer, { firstTokenDelayMs: 0, tokenDelayMs: 0 }, config.model),
        maxRetries: 0,
      });
  return {
    model: config.model,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const input = texts.slice(i, i + BATCH).map((t) => t.slice(0, MAX_CHARS) || " ");
        const response = await client.embeddings.create({ model: config.model, input });
        const byIndex = [...response.data].sort((a, b) => a.index - b.index);
        out.push(...byIndex.map((d) => d.embedding));
      }
      return out;
    },
  };
}

let cached: { embedder: Embedder | null } | undefined;

/** The deployment's embedder (null: none configured). */
export function getEmbedder(): Embedder | null {
  if (!cached) {
    const config = embeddingsConfigFrom(env);
    cached = { embedder: config ? createEmbedder(config) : null };
  }
  return cached.embedder;
}
