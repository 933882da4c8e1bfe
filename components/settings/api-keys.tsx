"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { useT } from "@/lib/i18n/client";
import { ApiKeyCreated } from "./api-key-created";
import { ApiKeyList } from "./api-key-list";
import { useApiKeys } from "./use-api-keys";

// Settings → API keys: create a key (shown once, with a copy button), list the working keys, revoke.
// Keys authenticate the OpenAI-compatible API at /v1; see the README.

export function ApiKeys() {
  const t = useT("settings");
  const keys = useApiKeys();
  const [name, setName] = useState("");

  async function create(e: React.FormEvent) {
    e.preventDefault();
    await keys.create(name, () => setName(""));
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
        <Button type="submit" disabled={keys.creating || name.trim() === ""} data-testid="api-key-create">
          {keys.creating ? t("keys.creating") : t("keys.create")}
        </Button>
      </form>

      {keys.failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800" data-testid="api-key-error">
          {keys.failure}
        </p>
      )}

      {keys.created && (
        <ApiKeyCreated
          created={keys.created}
          copied={keys.copied}
          onCopy={() => void keys.copy()}
          onDone={keys.dismissCreated}
        />
      )}

      <ApiKeyList keys={keys.keys} error={keys.error} isLoading={keys.isLoading} onRevoke={keys.askRevoke} />

      <ConfirmDialog
        open={keys.toRevoke !== null}
        title={t("keys.confirmTitle")}
        body={t("keys.confirmBody", { name: keys.toRevoke?.name ?? "" })}
        confirmLabel={t("keys.confirmLabel")}
        pending={keys.revoking}
        onCancel={() => keys.askRevoke(null)}
        onConfirm={() => void keys.revoke()}
      />
    </div>
  );
}
