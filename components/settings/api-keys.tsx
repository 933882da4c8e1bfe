"use client";

import { useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { getJson, request, sendJson } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";

// Settings → API keys: create a key (shown once, with a copy button), list the working keys, revoke.
// Keys authenticate the OpenAI-compatible API at /v1; see the README.

interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
}

export function ApiKeys() {
  const t = useT("settings");
  const errorText = useErrorText();
  const format = useFormat();
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : t("keys.never"));
  const { data: keys, error, isLoading, mutate } = useSWR("/api/keys", getJson<ApiKeyView[]>);
  const [name, setName] = useState("");
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiKeyView | null>(null);
  const [revoking, setRevoking] = useState(false);

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setCreating(true);
    setFailure(null);
    setCopied(false);
    try {
      const key = await sendJson<CreatedKey>("/api/keys", "POST", { name });
      setCreated(key);
      setName("");
      await mutate();
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setCreating(false);
    }
  }

  async function copy() {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      setFailure(t("keys.copyRefused"));
    }
  }

  async function revoke() {
    if (!toRevoke) return;
    setRevoking(true);
    setFailure(null);
    try {
      await request(`/api/keys/${toRevoke.id}`, { method: "DELETE" });
      if (created?.id === toRevoke.id) setCreated(null);
      await mutate();
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setRevoking(false);
      setToRevoke(null);
    }
  }

  return (
    <div className="space-y-6">
      <form onSubmit={create} className="flex items-end gap-2" aria-label={t("keys.createForm")}>
        <div className="flex-1">
          <Field
            id="api-key-name"
            label={t("keys.nameLabel")}
            placeholder={t("keys.namePlaceholder")}
            value={name}
            maxLength={100}
            onChange={(e) => setName(e.target.value)}
            data-testid="api-key-name"
          />
        </div>
        <Button type="submit" disabled={creating || name.trim() === ""} data-testid="api-key-create">
          {creating ? t("keys.creating") : t("keys.create")}
        </Button>
      </form>

      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800" data-testid="api-key-error">
          {failure}
        </p>
      )}

      {created && (
        <section
          className="rounded-md border border-emerald-200 bg-emerald-50 p-4"
          aria-label={t("keys.newKey")}
        >
          <p className="text-sm font-medium text-emerald-900">
            {t("keys.newKeyNote", { name: created.name })}
          </p>
          <div className="mt-2 flex items-center gap-2">
            <code
              className="flex-1 break-all rounded bg-white px-2 py-1 font-mono text-xs text-zinc-900"
              data-testid="api-key-secret"
            >
              {created.key}
            </code>
            <Button variant="secondary" onClick={() => void copy()} data-testid="api-key-copy">
              {copied ? t("keys.copied") : t("keys.copy")}
            </Button>
          </div>
          <Button variant="ghost" className="mt-2" onClick={() => setCreated(null)}>
            {t("keys.done")}
          </Button>
        </section>
      )}

      <section aria-label={t("keys.yours")}>
        <h2 className="mb-2 text-sm font-semibold text-zinc-700">{t("keys.yourKeys")}</h2>
        {error ? (
          <p role="alert" className="text-sm text-red-800">
            {errorText(error)}
          </p>
        ) : isLoading || !keys ? (
          <p className="text-sm text-zinc-500">{t("keys.loading")}</p>
        ) : keys.length === 0 ? (
          <p className="text-sm text-zinc-500" data-testid="api-keys-empty">
            {t("keys.empty")}
          </p>
        ) : (
          <ul
            className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white"
            data-testid="api-keys"
          >
            {keys.map((k) => (
              <li key={k.id} className="flex items-center gap-3 px-3 py-2 text-sm" data-testid="api-key-row">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{k.name}</p>
                  <p className="text-xs text-zinc-500">
                    <span className="font-mono">{k.prefix}…</span> ·{" "}
                    {t("keys.meta", { created: when(k.createdAt), used: when(k.lastUsedAt) })}
                  </p>
                </div>
                <Button variant="ghost" onClick={() => setToRevoke(k)} data-testid="api-key-revoke">
                  {t("keys.revoke")}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={toRevoke !== null}
        title={t("keys.confirmTitle")}
        body={t("keys.confirmBody", { name: toRevoke?.name ?? "" })}
        confirmLabel={t("keys.confirmLabel")}
        pending={revoking}
        onCancel={() => setToRevoke(null)}
        onConfirm={() => void revoke()}
      />
    </div>
  );
}
