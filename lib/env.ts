import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

// The one module that reads process.env. Everything else imports `env`.

const boolean = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const positiveInt = z.coerce.number({ message: "must be a positive integer" }).int().positive();
const nonNegativeInt = z.coerce.number({ message: "must be a non-negative integer" }).int().min(0);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .default("file:./data/recall.db")
    .refine((v) => /^(file:|postgres(ql)?:\/\/)/.test(v), "must start with file: or postgresql://"),
  AUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  AUTH_SECRET_FILE: z.string().default(".auth-secret"),
  // Read by next-auth itself; validated here so a typo fails at start.
  NEXTAUTH_URL: z.url({ message: "must be a URL" }).optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ message: "must be a URL" }).optional(),
  OPENAI_MODEL: z.string().min(1).optional(),
  OPENAI_API_STYLE: z.enum(["chat", "responses"], { message: "must be chat or responses" }).default("chat"),
  CHAT_SYSTEM_PROMPT: z.string().default("You are Recall, a helpful assistant. Answer concisely."),
  CHAT_MAX_INPUT_CHARS: positiveInt.max(100_000).default(8000),
  MEMORY_ENABLED: boolean.default(true),
  MEMORY_MAX_MESSAGES: positiveInt.max(10_000).default(20),
  TURN_LEASE_SECONDS: positiveInt.max(3600).default(120),
  OFFLINE_MODEL_FIRST_TOKEN_DELAY_MS: nonNegativeInt.max(60_000).default(0),
  OFFLINE_MODEL_TOKEN_DELAY_MS: nonNegativeInt.max(10_000).default(0),
  ADMIN_EMAIL: z.email({ message: "must be an email address" }).optional(),
  ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  ADMIN_NAME: z.string().min(1).default("Admin"),
});

export type Env = z.infer<typeof schema> & { AUTH_SECRET: string; offlineModel: boolean; model: string };

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

/** Parses a raw environment; empty strings count as unset. Throws EnvError naming every bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = result.data;
  const offlineModel = !e.OPENAI_API_KEY;
  return {
    ...e,
    AUTH_SECRET: e.AUTH_SECRET ?? readOrCreateSecret(e.AUTH_SECRET_FILE),
    offlineModel,
    model: e.OPENAI_MODEL ?? (offlineModel ? "recall-offline" : "gpt-4o-mini"),
  };
}

export const env: Env = parseEnv(process.env);
