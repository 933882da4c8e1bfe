import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { serverList } from "./mcp/config";
import { modelsConfig } from "./models/config";

// The one module that reads process.env. Everything else imports `env`.

const boolean = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number({ message: "must be a positive integer" }).int().positive();
/** An integer in [min, max], with one message naming the range. */
const intFrom = (min: number, max: number) =>
  z.coerce
    .number({ message: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, `must be an integer from ${min} to ${max}`)
    .max(max, `must be an integer from ${min} to ${max}`);
const nonNegativeInt = z.coerce.number({ message: "must be a non-negative integer" }).int().min(0);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .default("file:./data/recall.db")
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), "must start with file: or postgresql://"),
  // PostgreSQL: statements prepared once per connection (off behind a pooler that cannot keep them, such as
  // PgBouncer before 1.21 in transaction mode).
  DATABASE_PREPARED_STATEMENTS: boolean.default(true),
  AUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  AUTH_SECRET_FILE: z.string().default(".auth-secret"),
  // Read by next-auth itself; validated here so a typo fails at start.
  NEXTAUTH_URL: z.url({ message: "must be a URL" }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ message: "must be a URL" }).optional(),
  OPENAI_MODEL: z.string().min(1).optional(),
  OPENAI_API_STYLE: z.enum(["chat", "responses"], { message: "must be chat or responses" }).default("chat"),
  // Embeddings of messages and project file chunks for recall (docs/decisions/026-recall.md, 039): the model of an
  // OpenAI-compatible /v1/embeddings (unset: recall ranks lexically only), at EMBEDDINGS_BASE_URL (default
  // OPENAI_BASE_URL). Without OPENAI_API_KEY the offline model's deterministic embeddings answer.
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_BASE_URL: z.url({ message: "must be a URL" }).optional(),
  CHAT_SYSTEM_PROMPT: z.string().default("You are Recall, a helpful assistant. Answer concisely."),
  CHAT_MAX_INPUT_CHARS: positiveInt.max(100_000).default(8000),
  MEMORY_ENABLED: boolean.default(true),
  MEMORY_MAX_MESSAGES: positiveInt.max(10_000).default(20),
  MEMORY_POLICY: z
    .enum(["window", "tokens", "summary"], { message: "must be window, tokens or summary" })
    .default("window"),
  MEMORY_MAX_TOKENS: intFrom(100, 1_000_000).default(8000),
  // Earlier messages recalled into the context beside the window, and the most tokens they may take.
  MEMORY_RECALL: z
    .enum(["off", "conversation", "all"], { message: "must be off, conversation or all" })
    .default("conversation"),
  MEMORY_RECALL_MAX_TOKENS: intFrom(100, 32_000).default(2000),
  // The summary backlog (lib/chat/summary-backlog.ts): the most messages and tokens one segment sends the model.
  SUMMARY_BACKLOG_SEGMENT_MESSAGES: intFrom(2, 10_000).default(200),
  SUMMARY_BACKLOG_SEGMENT_TOKENS: intFrom(500, 1_000_000).default(8000),
  // At least the answer's reserve (1 024 tokens) plus the smallest budget (100), with room to spare.
  MODEL_CONTEXT_TOKENS: intFrom(2000, 10_000_000).default(128_000),
  // Conversations idle (not updated) for longer are deleted, like a manual delete; unset keeps them forever.
  HISTORY_RETENTION_DAYS: intFrom(1, 36_500).optional(),
  TURN_LEASE_SECONDS: intFrom(3, 3600).default(10),
  // Long-term memory: the deployment's switch (users also switch it for themselves), the tokens its
  // context section may take, and how many tool steps one turn may take before the model must answer.
  LONG_TERM_MEMORY: boolean.default(true),
  LONG_TERM_MEMORY_MAX_TOKENS: intFrom(50, 100_000).default(1000),
  TOOL_MAX_STEPS: intFrom(0, 16).default(4),
  // Facts the user states found after each answer: off, suggested for review, or saved at once (users choose too).
  MEMORY_EXTRACTION: z
    .enum(["off", "suggest", "auto"], { message: "must be off, suggest or auto" })
    .default("suggest"),
  MODEL_FIRST_BYTE_TIMEOUT_MS: intFrom(100, 600_000).default(60_000),
  MODEL_IDLE_TIMEOUT_MS: intFrom(100, 600_000).default(30_000),
  // Without OPENAI_API_KEY: the demo model a newcomer meets, or the scripted model the tests talk to.
  OFFLINE_MODEL: z.enum(["demo", "scripted"], { message: "must be demo or scripted" }).default("demo"),
  OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: nonNegativeInt.max(60_000).default(0),
  OFFLINE_MODEL_TOKEN_DELAY_MS: nonNegativeInt.max(10_000).default(0),
  ADMIN_EMAIL: z.email({ message: "must be an email address" }).optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  ADMIN_NAME: z.string().min(1).default("Admin"),
  // Abuse limits (lib/http.ts, lib/security, lib/rate-limit).
  MAX_BODY_BYTES: positiveInt.max(100 * 1024 * 1024).default(1024 * 1024),
  // Largest image a user may attach (lib/attachments); text files stay at 1 MB.
  MAX_IMAGE_BYTES: positiveInt.max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  // Largest file POST /api/projects/:id/files accepts (lib/projects); bigger ones get 413 and are not read further.
  PROJECT_FILE_MAX_BYTES: positiveInt.max(100 * 1024 * 1024).default(10 * 1024 * 1024),
  // Largest file POST /api/import accepts (lib/export); bigger ones get 413 and are not read further.
  MAX_IMPORT_BYTES: positiveInt.max(1024 * 1024 * 1024).default(50 * 1024 * 1024),
  ALLOWED_ORIGINS: z
    .string()
    .default("")
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const part of v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        try {
          origins.push(new URL(part).origin);
        } catch {
          ctx.addIssue({
            code: "custom",
            message: `"${part}" is not a URL (list origins like https://chat.example.com)`,
          });
        }
      }
      return origins;
    }),
  REGISTRATION: z
    .enum(["open", "closed", "invite"], { message: "must be open, closed or invite" })
    .default("open"),
  // Single sign-on with an OpenID Connect provider (docs/decisions/035-oidc.md): all three or none. OIDC_NAME is
  // the provider's name on the sign-in page ("Sign in with <name>").
  OIDC_ISSUER: z
    .url({ protocol: /^https?$/, message: "must be an http(s) URL (the provider's issuer)" })
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().trim().min(1).max(40, "must be at most 40 characters").default("SSO"),
  RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: positiveInt.max(10_000).default(10),
  RATE_LIMIT_SIGNIN_FAILURES_PER_IP: positiveInt.max(100_000).default(100),
  RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: positiveInt.max(100_000).default(10),
  RATE_LIMIT_TURNS_PER_MINUTE: positiveInt.max(100_000).default(60),
  QUOTA_MESSAGES_PER_DAY: positiveInt.max(10_000_000).optional(),
  // How many reverse proxies in front of the app append to X-Forwarded-For (0: the app faces clients directly).
  TRUSTED_PROXY_HOPS: nonNegativeInt.max(10).default(0),
  // MCP servers configured by the deployment (docs/decisions/025-mcp-tools.md): a JSON array of
  // { name, transport, command?, args?, env?, url?, headers?, enabled?, timeoutMs?, maxResultChars? }. They are
  // listed beside the admin's servers, read-only.
  MCP_SERVERS: z
    .string()
    .default("[]")
    .transform((v, ctx) => {
      let raw: unknown;
      try {
        raw = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array of MCP servers" });
        return z.NEVER;
      }
      const parsed = serverList.safeParse(raw);
      if (!parsed.success) {
        for (const i of parsed.error.issues)
          ctx.addIssue({ code: "custom", message: `[${i.path.join(".")}] ${i.message}` });
        return z.NEVER;
      }
      return parsed.data;
    }),
  // Models configured by the deployment (docs/decisions/032-models.md): a JSON array of { id, name, provider,
  // baseUrl?, apiKey?, modelId, contextTokens?, vision?, tools?, enabled? }, listed beside the admin's, read-only.
  MODELS_CONFIG: z
    .string()
    .default("[]")
    .transform((v, ctx) => {
      let raw: unknown;
      try {
        raw = JSON.parse(v);
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array of models" });
        return z.NEVER;
      }
      const parsed = modelsConfig.safeParse(raw);
      if (!parsed.success) {
        for (const i of parsed.error.issues)
          ctx.addIssue({ code: "custom", message: `[${i.path.join(".")}] ${i.message}` });
        return z.NEVER;
      }
      return parsed.data;
    }),
});

/** The OpenID Connect provider users may sign in with, when OIDC_* is configured. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

export type Env = z.infer<typeof schema> & {
  AUTH_SECRET: string;
  offlineModel: boolean;
  model: string;
  oidc: OidcConfig | null;
};

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "EnvError";
  }
}

function readOrCreateSecret(file: string): string {
  const full = path.resolve(file);
  try {
    return readFileSync(full, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(full, `${secret}\n`, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      // Another process created it first.
      return readFileSync(full, "utf8").trim();
    }
  }
}

const OIDC_VARS = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const;

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: all three or none (a partial setup is a startup error, not a
 * sign-in button that fails). The provider sends users back to <NEXTAUTH_URL>/api/auth/callback/oidc, so next-auth
 * must know the app's address: NEXTAUTH_URL, or AUTH_TRUST_HOST behind a proxy that sets the Host header.
 */
function oidcConfig(e: z.infer<typeof schema>, raw: Record<string, string>): OidcConfig | null {
  const set = OIDC_VARS.filter((name) => e[name] !== undefined);
  if (set.length === 0) return null;
  if (set.length < OIDC_VARS.length) {
    const missing = OIDC_VARS.filter((name) => e[name] === undefined);
    throw new EnvError(
      missing.map(
        (name) => `${name}: must be set with ${set.join(" and ")} (single sign-on needs all three)`,
      ),
    );
  }
  if (!e.NEXTAUTH_URL && !raw.AUTH_TRUST_HOST) {
    throw new EnvError([
      "NEXTAUTH_URL: must be set with OIDC_ISSUER (the provider sends users back to <NEXTAUTH_URL>/api/auth/callback/oidc)",
    ]);
  }
  return {
    issuer: e.OIDC_ISSUER as string,
    clientId: e.OIDC_CLIENT_ID as string,
    clientSecret: e.OIDC_CLIENT_SECRET as string,
    name: e.OIDC_NAME,
  };
}

/** Parses a raw environment; empty strings count as unset. Throws EnvError naming every bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(
    Object.entries(raw).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
    ),
  );
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = result.data;
  const offlineModel = !e.OPENAI_API_KEY;
  const oidc = oidcConfig(e, cleaned);
  return {
    ...e,
    oidc,
    AUTH_SECRET: e.AUTH_SECRET ?? readOrCreateSecret(e.AUTH_SECRET_FILE),
    offlineModel,
    model:
      e.OPENAI_MODEL ??
      (offlineModel
        ? e.OFFLINE_MODEL === "scripted"
          ? "recall-scripted"
          : "recall-offline"
        : "gpt-4o-mini"),
  };
}

export const env: Env = parseEnv(process.env);
