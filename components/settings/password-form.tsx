"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

// Settings → Password. The server re-issues this browser's session cookie with the answer, so it stays signed in
// while every other sign-in is refused.

export function PasswordForm() {
  const t = useT("settings");
  const errorText = useErrorText();
  const router = useRouter();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [confirm, setConfirm] = useState("");
  const [revokeApiKeys, setRevokeApiKeys] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<{ revokedApiKeys: number } | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setFailure(null);
    setDone(null);
    if (newPassword !== confirm) {
      setFailure(t("password.mismatch"));
      return;
    }
    setSaving(true);
    try {
      const result = await sendJson<{ revokedApiKeys: number }>("/api/me/password", "POST", {
        currentPassword,
        newPassword,
        revokeApiKeys,
      });
      setDone(result);
      setCurrent("");
      setNew("");
      setConfirm("");
      router.refresh(); // a password an administrator reset no longer has to be changed
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={t("password.form")} data-testid="password-form">
      <Field
        id="current-password"
        label={t("password.current")}
        type="password"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(e) => setCurrent(e.target.value)}
        data-testid="current-password"
      />
      <Field
        id="new-password"
        label={t("password.new")}
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={200}
        aria-describedby="new-password-hint"
        value={newPassword}
        onChange={(e) => setNew(e.target.value)}
        data-testid="new-password"
      />
      <p id="new-password-hint" className="-mt-2 text-xs text-zinc-600">
        {t("password.hint")}
      </p>
      <Field
        id="confirm-password"
        label={t("password.confirm")}
        type="password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        data-testid="confirm-password"
      />
      <label className="flex items-center gap-2 text-sm text-zinc-700">
        <input
          type="checkbox"
          checked={revokeApiKeys}
          onChange={(e) => setRevokeApiKeys(e.target.checked)}
          data-testid="revoke-api-keys"
        />
        {t("password.revokeApiKeys")}
      </label>
      {failure && (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="password-error"
        >
          {failure}
        </p>
      )}
      {done && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="password-done"
        >
          {done.revokedApiKeys > 0
            ? t("password.doneWithKeys", { count: done.revokedApiKeys })
            : t("password.done")}
        </p>
      )}
      <Button type="submit" disabled={saving} data-testid="password-submit">
        {saving ? t("password.saving") : t("password.submit")}
      </Button>
    </form>
  );
}
