"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ServerForm } from "./server-form";
import { ServersTable } from "./servers-table";
import { send, type ToolServer } from "./types";

const urlOf = (s: ToolServer) => `/api/admin/tools/${encodeURIComponent(s.id)}`;

export function ToolsPanel({ initial }: { initial: ToolServer[] }) {
  const t = useT("adminTools");
  const errorText = useErrorText();
  const [servers, setServers] = useState(initial);
  const [editing, setEditing] = useState<ToolServer | "new" | null>(null);
  const [deleting, setDeleting] = useState<ToolServer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const replace = (s: ToolServer) =>
    setServers((list) => {
      const found = list.some((x) => x.id === s.id);
      const next = found ? list.map((x) => (x.id === s.id ? s : x)) : [...list, s];
      return next.sort((a, b) => Number(b.readOnly) - Number(a.readOnly) || a.name.localeCompare(b.name));
    });

  async function run(s: ToolServer, action: () => Promise<void>) {
    setBusy(s.id);
    setError(null);
    try {
      await action();
    } catch {
      setError(t("unreachable"));
    } finally {
      setBusy(null);
    }
  }

  const toggle = (s: ToolServer) =>
    run(s, async () => {
      const res = await send<{ server: ToolServer }>(urlOf(s), "PATCH", { enabled: !s.enabled });
      if (res.ok) replace(res.data.server);
      else setError(errorText(res.error));
    });

  const test = (s: ToolServer) =>
    run(s, async () => {
      const res = await send<{ server: ToolServer }>(`${urlOf(s)}?connect=1`, "GET");
      if (res.ok) replace(res.data.server);
      else setError(errorText(res.error));
    });

  const remove = (s: ToolServer) =>
    run(s, async () => {
      const res = await send<null>(urlOf(s), "DELETE");
      if (res.ok) setServers((list) => list.filter((x) => x.id !== s.id));
      else setError(errorText(res.error));
      setDeleting(null);
    });

  return (
    <div className="space-y-4">
      {editing === null && (
        <Button onClick={() => setEditing("new")} data-testid="add-tool-server">
          {t("add")}
        </Button>
      )}
      {editing !== null && (
        <ServerForm
          key={editing === "new" ? "new" : editing.id}
          server={editing === "new" ? undefined : editing}
          onSaved={(s) => {
            replace(s);
            setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <ServersTable
        servers={servers}
        busy={busy}
        onToggle={(s) => void toggle(s)}
        onEdit={setEditing}
        onDelete={setDeleting}
        onTest={(s) => void test(s)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle", { name: deleting?.name ?? "" })}
        body={t("deleteBody")}
        confirmLabel={t("deleteConfirm")}
        pending={busy !== null}
        onConfirm={() => deleting && void remove(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
