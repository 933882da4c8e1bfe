import { answered, request } from "@/lib/client/api";
import type { McpServerView } from "@/lib/mcp/servers";

// The admin tools page's view of a server, as GET /api/admin/tools returns it (secrets masked).

export interface ToolServerStatus {
  state: "running" | "failed" | "stopped";
  lastError: string | null;
  toolNames: string[];
}

export type ToolServer = McpServerView & { status: ToolServerStatus };

export interface ApiError {
  code?: string;
  message?: string;
  details?: { path: string; message: string }[];
}

/**
 * Sends a JSON request; the parsed body, or the error the API answered with (null when its answer was not one).
 * Throws a RequestError when no answer arrived.
 */
export async function send<T>(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ ok: true; data: T } | { ok: false; error: ApiError | null }> {
  try {
    const res = await request(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 204) return { ok: true, data: null as T };
    const data = (await res.json().catch(() => null)) as T | null;
    return data ? { ok: true, data } : { ok: false, error: null };
  } catch (e) {
    if (!answered(e)) throw e;
    const details = Array.isArray(e.details) ? (e.details as ApiError["details"]) : undefined;
    return { ok: false, error: e.fromServer ? { code: e.code, message: e.message, details } : null };
  }
}

/** The server form's fields as the body of POST /api/admin/tools or PATCH /api/admin/tools/:id. */
export function serverBodyOf(form: FormData, transport: "stdio" | "http") {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  return {
    name: text("name"),
    transport,
    ...(transport === "stdio"
      ? {
          command: text("command"),
          args: text("args")
            .split("\n")
            .map((a) => a.trim())
            .filter(Boolean),
          env: linesToMap(text("env"), "="),
        }
      : { url: text("url"), headers: linesToMap(text("headers"), ":") }),
    enabled: form.get("enabled") === "on",
    timeoutMs: Number(text("timeoutMs")),
    maxResultChars: Number(text("maxResultChars")),
  };
}

/** "NAME=value" (sep "=") or "Name: value" (sep ":") lines ↔ a map. */
function linesToMap(text: string, sep: "=" | ":"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf(sep);
    if (at <= 0) continue;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export const mapToLines = (m: Record<string, string>, sep: "=" | ":") =>
  Object.entries(m)
    .map(([k, v]) => (sep === "=" ? `${k}=${v}` : `${k}: ${v}`))
    .join("\n");
