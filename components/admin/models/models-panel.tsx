"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type AdminModel, deleteAdminModel, saveAdminModel } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { ModelForm } from "./model-form";

/** The admin's models: add, edit, enable or disable, delete (with a confirmation). */
export function ModelsPanel({ initial }: { initial: AdminModel[] }) {
  const t = useT("models");
  const errorText = useErrorText();
  const [models, setModels] = useState(initial);
  const [editing, setEditing] = useState<AdminModel | "new" | null>(null);
  const [deleting, setDeleting] = useState<AdminModel | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const replace = (m: AdminModel) =>
    setModels((list) =>
      list.some((x) => x.id === m.id) ? list.map((x) => (x.id === m.id ? m : x)) : [...list, m],
    );

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(t("failed", { message: errorText(e) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-4">
      {editing === null && (
        <Button onClick={() => setEditing("new")} data-testid="add-model">
          {t("add")}
        </Button>
      )}
      {editing !== null && (
        <ModelForm
          key={editing === "new" ? "new" : editing.id}
          model={editing === "new" ? undefined : editing}
          onSaved={(m) => {
            replace(m);
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
      <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200" aria-label={t("columns")}>
        {models.map((m) => (
          <li
            key={m.id}
            className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-sm"
            data-testid="model-row"
          >
            <span className="min-w-0 break-words font-medium text-zinc-900">{m.name}</span>
            <span className="min-w-0 break-all text-zinc-600">
              {m.provider} · {m.modelId} · {m.contextTokens.toLocaleString()} ·{" "}
              {m.enabled ? t("on") : t("off")} · {m.hasApiKey ? t("hasKey") : t("noKey")}
            </span>
            {m.readOnly ? (
              <span className="text-xs text-zinc-600">{t("deployment")}</span>
            ) : (
              <span className="ml-auto flex gap-2">
                <Button variant="secondary" disabled={busy} onClick={() => setEditing(m)}>
                  {t("edit")}
                </Button>
                <Button
                  variant="secondary"
                  disabled={busy}
                  onClick={() =>
                    void run(async () => replace(await saveAdminModel(m.id, { enabled: !m.enabled })))
                  }
                  data-testid="model-toggle"
                >
                  {m.enabled ? t("disable") : t("enable")}
                </Button>
                <Button
                  variant="secondary"
                  disabled={busy}
                  onClick={() => setDeleting(m)}
                  data-testid="model-delete"
                >
                  {t("delete")}
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle", { name: deleting?.name ?? "" })}
        body={t("deleteBody")}
        confirmLabel={t("deleteConfirm")}
        pending={busy}
        onConfirm={() =>
          deleting &&
          void run(async () => {
            await deleteAdminModel(deleting.id);
            setModels((list) => list.filter((x) => x.id !== deleting.id));
            setDeleting(null);
          })
        }
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
