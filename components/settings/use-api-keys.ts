"use client";

import { useState } from "react";
import useSWR from "swr";
import { getJson, request, sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

// The user's API keys (GET /api/keys) and what can be done with them: create one (its secret is known only in
// the answer to the creation, so it is kept here until dismissed), copy that secret, revoke a key.

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
}

export function useApiKeys() {
  const t = useT("settings");
  const errorText = useErrorText();
  const list = useSWR("/api/keys", getJson<ApiKeyView[]>);
  const { mutate } = list;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [copied, setCopied] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiKeyView | null>(null);
  const [revoking, setRevoking] = useState(false);

  /** Creates a key named `name`; `onCreated` runs once the server has made it. */
  async function create(name: string, onCreated: () => void) {
    setCreating(true);
    setFailure(null);
    setCopied(false);
    try {
      setCreated(await sendJson<CreatedKey>("/api/keys", "POST", { name }));
      onCreated();
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

  return {
    keys: list.data,
    error: list.error as unknown,
    isLoading: list.isLoading,
    creating,
    created,
    copied,
    failure,
    toRevoke,
    revoking,
    create,
    copy,
    dismissCreated: () => setCreated(null),
    askRevoke: setToRevoke,
    revoke,
  };
}
