"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

// Settings → Profile. A new email asks for the current password (the server refuses it without); the name alone
// does not.

export function ProfileForm({ user }: { user: { name: string; email: string } }) {
  const t = useT("settings");
  const errorText = useErrorText();
  const router = useRouter();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [currentPassword, setCurrent] = useState("");
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const emailChanged = email.trim().toLowerCase() !== user.email;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setFailure(null);
    setDone(false);
    setSaving(true);
    try {
      await sendJson("/api/me", "PATCH", {
        name,
        ...(emailChanged ? { email: email.trim(), currentPassword } : {}),
      });
      setCurrent("");
      setDone(true);
      router.refresh(); // the sidebar shows the new name and email
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={t("profile.form")} data-testid="profile-form">
      <Field
        id="profile-name"
        label={t("profile.name")}
        autoComplete="name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        data-testid="profile-name"
      />
      <Field
        id="profile-email"
        label={t("profile.email")}
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        data-testid="profile-email"
      />
      {emailChanged && (
        <>
          <Field
            id="profile-current-password"
            label={t("profile.currentPassword")}
            type="password"
            autoComplete="current-password"
            required
            aria-describedby="profile-current-password-hint"
            value={currentPassword}
            onChange={(e) => setCurrent(e.target.value)}
            data-testid="profile-current-password"
          />
          <p id="profile-current-password-hint" className="-mt-2 text-xs text-zinc-600">
            {t("profile.currentPasswordHint")}
          </p>
        </>
      )}
      {failure && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800" data-testid="profile-error">
          {failure}
        </p>
      )}
      {done && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="profile-done"
        >
          {t("profile.done")}
        </p>
      )}
      <Button type="submit" disabled={saving} data-testid="profile-submit">
        {saving ? t("profile.saving") : t("profile.submit")}
      </Button>
    </form>
  );
}
