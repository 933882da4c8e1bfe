import { z } from "zod";

// The shape of one MCP server, shared by the admin API, the MCP_SERVERS setting and the manager. Pure zod: lib/env.ts
// imports it.

/** Lowercase letters, digits and hyphens: the server's tools are offered as `<name>__<tool>`, so no underscores. */
const serverName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,23}$/,
    "name must be 1–24 lowercase letters, digits or hyphens, not starting with one",
  );

const stringMap = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/, "names must be letters, digits, _ . -"),
  z.string().max(4000),
);

const serverFields = {
  name: serverName,
  transport: z.enum(["stdio", "http"], { message: 'transport must be "stdio" or "http"' }),
  command: z.string().trim().min(1, "command must not be empty").max(1000).optional(),
  args: z.array(z.string().max(4000)).max(100).optional(),
  env: stringMap.optional(),
  url: z
    .url({ message: "url must be an http(s) URL", protocol: /^https?$/ })
    .max(2000)
    .optional(),
  headers: stringMap.optional(),
  enabled: z.boolean().default(true),
  timeoutMs: z.number().int().min(100, "timeoutMs must be at least 100").max(600_000).default(30_000),
  maxResultChars: z
    .number()
    .int()
    .min(100, "maxResultChars must be at least 100")
    .max(1_000_000)
    .default(20_000),
};

function requireTransportFields(
  v: { transport: string; command?: string | undefined; url?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (v.transport === "stdio" && !v.command) {
    ctx.addIssue({ code: "custom", path: ["command"], message: "command is required for a stdio server" });
  }
  if (v.transport === "http" && !v.url) {
    ctx.addIssue({ code: "custom", path: ["url"], message: "url is required for an http server" });
  }
}

export const serverInput = z.object(serverFields).strict().superRefine(requireTransportFields);
export type ServerInput = z.infer<typeof serverInput>;

/** PATCH: any subset; the merged result is validated again with `serverInput`. */
export const serverPatch = z
  .object({
    ...serverFields,
    enabled: z.boolean().optional(),
    timeoutMs: serverFields.timeoutMs.removeDefault().optional(),
    maxResultChars: serverFields.maxResultChars.removeDefault().optional(),
  })
  .partial()
  .strict();
export type ServerPatch = z.infer<typeof serverPatch>;

/** MCP_SERVERS: a JSON array of servers, names unique. */
export const serverList = z.array(serverInput).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.name))
      ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate name ${s.name}` });
    seen.add(s.name);
  });
});

/** A server as the manager runs it (secrets in the clear: server-side only). */
export interface McpServerConfig {
  id: string;
  name: string;
  transport: "stdio" | "http";
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  enabled: boolean;
  timeoutMs: number;
  maxResultChars: number;
  /** From MCP_SERVERS: listed, not editable through the admin API. */
  readOnly: boolean;
}

/** Servers of MCP_SERVERS get a stable id from their name, distinct from database ids (cuids have no colon). */
export const envServerId = (name: string) => `env:${name}`;

export function configFromInput(
  s: ServerInput,
  { id, readOnly }: { id: string; readOnly: boolean },
): McpServerConfig {
  return {
    id,
    name: s.name,
    transport: s.transport,
    command: s.command ?? null,
    args: s.args ?? [],
    env: s.env ?? {},
    url: s.url ?? null,
    headers: s.headers ?? {},
    enabled: s.enabled,
    timeoutMs: s.timeoutMs,
    maxResultChars: s.maxResultChars,
    readOnly,
  };
}

export const TOOL_SEPARATOR = "__";
