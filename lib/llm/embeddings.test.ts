import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { createEmbedder, embeddingsConfigFrom } from "./embeddings";

const parse = (raw: Record<string, string>) => parseEnv({ AUTH_SECRET: "x".repeat(32), ...raw });

describe("embeddings configuration", () => {
  it("is off without EMBEDDINGS_MODEL: recall stays lexical", () => {
    expect(embeddingsConfigFrom(parse({}))).toBeNull();
    expect(
      embeddingsConfigFrom(parse({ OPENAI_API_KEY: "sk-x", EMBEDDINGS_BASE_URL: "http://e.test/v1" })),
    ).toBeNull();
  });

  it("uses the offline embeddings without OPENAI_API_KEY", () => {
    expect(embeddingsConfigFrom(parse({ EMBEDDINGS_MODEL: "any" }))).toEqual({ model: "any" });
  });

  it("sends to EMBEDDINGS_BASE_URL, else to OPENAI_BASE_URL, with the API key", () => {
    const base = { OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: "http://chat.test/v1", EMBEDDINGS_MODEL: "e5" };
    expect(embeddingsConfigFrom(parse(base))).toEqual({
      model: "e5",
      apiKey: "sk-x",
      baseURL: "http://chat.test/v1",
    });
    expect(
      embeddingsConfigFrom(parse({ ...base, EMBEDDINGS_BASE_URL: "http://embed.test/v1" }))?.baseURL,
    ).toBe("http://embed.test/v1");
  });

  it("embeds through the offline endpoint, in order, in batches", async () => {
    const embedder = createEmbedder({ model: "offline-embeddings" });
    const texts = Array.from({ length: 70 }, (_, i) => `note number ${i} about topic${i % 3}`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(70);
    expect(vectors[5]).toEqual((await embedder.embed([texts[5] as string]))[0]);
    expect(vectors[5]).not.toEqual(vectors[6]);
  });
});
