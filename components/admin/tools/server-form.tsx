"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { type ApiError, mapToLines, send, serverBodyOf, type ToolServer } from "./types";

const inputClass =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 shadow-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900";

/** Adds a server (no `server`) or edits one; calls `onSaved` with what the API answered. */
export function ServerForm({
  server,
  onSaved,
  onCancel,
}: {
  server?: ToolServer;
  onSaved: (s: ToolServer) => void;
  onCancel: () => void;
}) {
  const t = useT("adminTools");
  const id = useId();
  const [transport, setTransport] = useState<"stdio" | "http">(server?.transport ?? "stdio");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(form: FormData) {
    const body = serverBodyOf(form, transport);
    setPending(true);
    setError(null);
    try {
      const res = server
        ? await send<{ server: ToolServer }>(
            `/api/admin/tools/${encodeURIComponent(server.id)}`,
            "PATCH",
            body,
          )
        : await send<{ server: ToolServer }>("/api/admin/tools", "POST", body);
      if (res.ok) onSaved(res.data.server);
      else setError(t("failed", { message: errorDetails(res.error) }));
    } catch {
      setError(t("unreachable"));
    } finally {
      setPending(false);
    }
  }

  const field = (name: string, label: string, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <label htmlFor={`${id}-${name}`} className="block text-sm font-medium text-zinc-700">
      {label}
      <input id={`${id}-${name}`} name={name} className={inputClass} {...props} />
    </label>
  );
  const area = (name: string, label: string, value: string) => (
    <label htmlFor={`${id}-${name}`} className="block text-sm font-medium text-zinc-700">
      {label}
      <textarea
        id={`${id}-${name}`}
        name={name}
        rows={3}
        defaultValue={value}
        className={`${inputClass} font-mono`}
      />
    </label>
  );

  return (
    <form
      action={(f) => void submit(f)}
      className="space-y-3 rounded-md border border-zinc-300 p-4"
      aria-labelledby={`${id}-title`}
      data-testid="tool-server-form"
    >
      <h2 id={`${id}-title`} className="font-semibold">
        {server ? t("formEdit", { name: server.name }) : t("formAdd")}
      </h2>
      {field("name", t("name"), { defaultValue: server?.name ?? "", required: true })}
      <label htmlFor={`${id}-transport`} className="block text-sm font-medium text-zinc-700">
        {t("transport")}
        <select
          id={`${id}-transport`}
          value={transport}
          onChange={(e) => setTransport(e.target.value === "http" ? "http" : "stdio")}
          className={inputClass}
        >
          <option value="stdio">{t("stdio")}</option>
          <option value="http">{t("http")}</option>
        </select>
      </label>
      {transport === "stdio" ? (
        <>
          {field("command", t("command"), { defaultValue: server?.command ?? "" })}
          {area("args", t("args"), (server?.args ?? []).join("\n"))}
          {area("env", t("env"), mapToLines(server?.env ?? {}, "="))}
        </>
      ) : (
        <>
          {field("url", t("url"), { defaultValue: server?.url ?? "", type: "url" })}
          {area("headers", t("headers"), mapToLines(server?.headers ?? {}, ":"))}
        </>
      )}
      {server && <p className="text-xs text-zinc-600">{t("secretsKept")}</p>}
      <div className="flex flex-wrap gap-3">
        {field("timeoutMs", t("timeoutMs"), {
          type: "number",
          min: 100,
          defaultValue: server?.timeoutMs ?? 30000,
        })}
        {field("maxResultChars", t("maxResultChars"), {
          type: "number",
          min: 100,
          defaultValue: server?.maxResultChars ?? 20000,
        })}
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="enabled" defaultChecked={server?.enabled ?? true} />
        {t("enabled")}
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending} data-testid="tool-server-save">
          {pending ? t("saving") : t("save")}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("cancel")}
        </Button>
      </div>
    </form>
  );
}

const errorDetails = (e: ApiError | null) =>
  e?.details?.length ? e.details.map((d) => `${d.path}: ${d.message}`).join("; ") : (e?.message ?? "?");
