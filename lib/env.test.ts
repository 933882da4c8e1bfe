import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { envIssues as issuesOf, parseTestEnv as parse, secretFile } from "@/test/env";
import { parseEnv } from "./env";

describe("parseEnv", () => {
  it("has working defaults: SQLite, offline model, a window of 20", () => {
    const env = parse({});
    expect(env).toMatchObject({
      DATABASE_URL: "file:./data/recall.db",
      OPENAI_API_STYLE: "chat",
      MEMORY_ENABLED: true,
      MEMORY_MAX_MESSAGES: 20,
      CHAT_MAX_INPUT_CHARS: 8000,
      TURN_LEASE_SECONDS: 10,
      LONG_TERM_MEMORY: true,
      LONG_TERM_MEMORY_MAX_TOKENS: 1000,
      TOOL_MAX_STEPS: 4,
      MEMORY_EXTRACTION: "suggest",
      MODEL_FIRST_BYTE_TIMEOUT_MS: 60_000,
      MODEL_IDLE_TIMEOUT_MS: 30_000,
      MEMORY_POLICY: "window",
      MEMORY_MAX_TOKENS: 8000,
      MEMORY_RECALL: "conversation",
      MEMORY_RECALL_MAX_TOKENS: 2000,
      MODEL_CONTEXT_TOKENS: 128_000,
      OFFLINE_MODEL: "demo",
      OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: 0,
      OFFLINE_MODEL_TOKEN_DELAY_MS: 0,
      ADMIN_NAME: "Admin",
      offlineModel: true,
      model: "recall-offline",
    });
    expect(env.CHAT_SYSTEM_PROMPT.length).toBeGreaterThan(0);
  });

  it("treats empty strings as unset", () => {
    expect(parse({ MEMORY_MAX_MESSAGES: "", OPENAI_API_KEY: "" })).toMatchObject({
      MEMORY_MAX_MESSAGES: 20,
      offlineModel: true,
    });
  });

  it.each([
    ["MEMORY_MAX_MESSAGES", "0"],
    ["MEMORY_MAX_MESSAGES", "2.5"],
    ["MEMORY_MAX_MESSAGES", "twenty"],
    ["MEMORY_ENABLED", "maybe"],
    ["OPENAI_API_STYLE", "completions"],
    ["OPENAI_BASE_URL", "not a url"],
    ["EMBEDDINGS_BASE_URL", "not a url"],
    ["DATABASE_URL", "mysql://localhost/x"],
    ["AUTH_SECRET", "short"],
    ["CHAT_MAX_INPUT_CHARS", "-1"],
    ["TURN_LEASE_SECONDS", "0"],
    ["TURN_LEASE_SECONDS", "2"],
    ["LONG_TERM_MEMORY", "sometimes"],
    ["LONG_TERM_MEMORY_MAX_TOKENS", "10"],
    ["TOOL_MAX_STEPS", "17"],
    ["MEMORY_EXTRACTION", "always"],
    ["MODEL_FIRST_BYTE_TIMEOUT_MS", "50"],
    ["MODEL_IDLE_TIMEOUT_MS", "forever"],
    ["MEMORY_POLICY", "everything"],
    ["MEMORY_MAX_TOKENS", "99"],
    ["MEMORY_RECALL", "everything"],
    ["MEMORY_RECALL_MAX_TOKENS", "99"],
    ["MEMORY_RECALL_MAX_TOKENS", "32001"],
    ["MODEL_CONTEXT_TOKENS", "0"],
    ["OFFLINE_MODEL", "gpt"],
    ["OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS", "-5"],
    ["OFFLINE_MODEL_TOKEN_DELAY_MS", "soon"],
    ["ADMIN_EMAIL", "admin"],
    ["ADMIN_PASSWORD", "short"],
    ["NEXTAUTH_URL", "recall.example.com"],
    ["MCP_SERVERS", "not json"],
    ["MCP_SERVERS", '[{"name":"x","transport":"stdio"}]'],
    ["MCP_SERVERS", '[{"name":"Bad_Name","transport":"http","url":"http://127.0.0.1/mcp"}]'],
    ["MODELS_CONFIG", "not json"],
    ["MODELS_CONFIG", '[{"id":"a b","name":"A","provider":"P","modelId":"m"}]'],
  ])("rejects %s=%s with a message naming it", (name, value) => {
    const issues = issuesOf({ [name]: value });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(new RegExp(`^${name}: `));
  });

  it("reads MODELS_CONFIG as models with their defaults", () => {
    const models = parse({
      MODELS_CONFIG: JSON.stringify([
        {
          id: "llama",
          name: "Llama",
          provider: "Ollama",
          baseUrl: "http://127.0.0.1:11434/v1",
          modelId: "llama3",
        },
      ]),
    }).MODELS_CONFIG;
    expect(models).toEqual([
      expect.objectContaining({
        id: "llama",
        contextTokens: 128_000,
        vision: false,
        tools: true,
        enabled: true,
      }),
    ]);
  });

  it("reads MCP_SERVERS as servers with their defaults", () => {
    const servers = parse({
      MCP_SERVERS: JSON.stringify([
        { name: "files", transport: "stdio", command: "mcp-files", env: { ROOT: "/srv" } },
        { name: "weather", transport: "http", url: "http://127.0.0.1:9000/mcp", timeoutMs: 5000 },
      ]),
    }).MCP_SERVERS;
    expect(servers).toEqual([
      expect.objectContaining({
        name: "files",
        command: "mcp-files",
        env: { ROOT: "/srv" },
        enabled: true,
        timeoutMs: 30_000,
      }),
      expect.objectContaining({
        name: "weather",
        url: "http://127.0.0.1:9000/mcp",
        timeoutMs: 5000,
        maxResultChars: 20_000,
      }),
    ]);
    expect(parse({}).MCP_SERVERS).toEqual([]);
  });

  it("reads PROJECT_FILE_MAX_BYTES (default 10 MB), refusing what is not a positive size", () => {
    expect(parse({}).PROJECT_FILE_MAX_BYTES).toBe(10 * 1024 * 1024);
    expect(parse({ PROJECT_FILE_MAX_BYTES: "2048" }).PROJECT_FILE_MAX_BYTES).toBe(2048);
    for (const bad of ["0", "-1", "1.5", "lots", String(200 * 1024 * 1024)]) {
      expect(issuesOf({ PROJECT_FILE_MAX_BYTES: bad })[0]).toMatch(/^PROJECT_FILE_MAX_BYTES/);
    }
  });

  it("names every invalid variable at once", () => {
    const issues = issuesOf({ MEMORY_MAX_MESSAGES: "0", OPENAI_API_STYLE: "x" });
    expect(issues.map((i) => i.split(":")[0]).sort()).toEqual(["MEMORY_MAX_MESSAGES", "OPENAI_API_STYLE"]);
  });

  it.each([
    ["true", true],
    ["1", true],
    ["yes", true],
    ["false", false],
    ["0", false],
    ["no", false],
  ])("reads MEMORY_ENABLED=%s as %s", (value, expected) => {
    expect(parse({ MEMORY_ENABLED: value }).MEMORY_ENABLED).toBe(expected);
  });

  it("names the scripted model when OFFLINE_MODEL=scripted, and ignores the setting with an API key", () => {
    expect(parse({ OFFLINE_MODEL: "scripted" })).toMatchObject({
      OFFLINE_MODEL: "scripted",
      model: "recall-scripted",
    });
    expect(parse({ OFFLINE_MODEL: "scripted", OPENAI_API_KEY: "sk-x" })).toMatchObject({
      offlineModel: false,
      model: "gpt-4o-mini",
    });
  });

  it("uses a real model when OPENAI_API_KEY is set", () => {
    const env = parse({
      OPENAI_API_KEY: "sk-x",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_MODEL: "llama3",
    });
    expect(env).toMatchObject({
      offlineModel: false,
      model: "llama3",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
    });
    expect(parse({ OPENAI_API_KEY: "sk-x" }).model).toBe("gpt-4o-mini");
  });

  it("accepts PostgreSQL URLs", () => {
    expect(parse({ DATABASE_URL: "postgresql://u@127.0.0.1:5432/db" }).DATABASE_URL).toContain(
      "postgresql://",
    );
  });

  it("uses AUTH_SECRET when given, else generates one once and keeps it in AUTH_SECRET_FILE", () => {
    expect(parse({ AUTH_SECRET: "0123456789abcdef0123" }).AUTH_SECRET).toBe("0123456789abcdef0123");
    const file = secretFile();
    const first = parseEnv({ AUTH_SECRET_FILE: file }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(parseEnv({ AUTH_SECRET_FILE: file }).AUTH_SECRET).toBe(first);
  });
});
