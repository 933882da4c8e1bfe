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

/** Sends a JSON request; the parsed body, or the error the API answered with. */
export async function send<T>(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ ok: true; data: T } | { ok: false; error: ApiError | null }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 204) return { ok: true, data: null as T };
  const data = (await res.json().catch(() => null)) as (T & { error?: ApiError }) | null;
  if (!res.ok || !data) return { ok: false, error: data?.error ?? null };
  return { ok: true, data };
}

/** "NAME=value" (sep "=") or "Name: value" (sep ":") lines ↔ a map. */
export function linesToMap(text: string, sep: "=" | ":"): Record<string, string> {
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
