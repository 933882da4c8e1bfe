"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { useT } from "@/lib/i18n/client";
import { FormError } from "./auth-card";

// Only same-origin paths: a callbackUrl must never send the user to another site.
export function safeCallback(raw: string | null): string {
  if (!raw) return "/";
  try {
    const url = new URL(raw, window.location.origin);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}` : "/";
  } catch {
    return "/";
  }
}

export function LoginForm({
  callbackUrl,
  errorCode = null,
}: {
  callbackUrl: string | null;
  /** Why a provider sign-in came back here (`?error=`): our codes by name, next-auth's as "failed". */
  errorCode?: string | null;
}) {
  const t = useT("auth");
  const router = useRouter();
  const [error, setError] = useState<string | null>(() =>
    errorCode ? t.dynamic(`signIn.errors.${errorCode}`, t("signIn.errors.sso_failed")) : null,
  );
  const [pending, setPending] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  /** A failed sign-in says why and puts the cursor where the fix goes: the empty field, else the password. */
  function fail(message: string, field: HTMLInputElement | null) {
    setError(message);
    requestAnimationFrame(() => {
      field?.focus();
      field?.select();
    });
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (!email || !password) {
      fail(t("signIn.missingFields"), email ? passwordRef.current : emailRef.current);
      return;
    }
    setPending(true);
    setError(null);
    try {
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result?.ok) {
        const code = result?.error ?? "";
        fail(t.dynamic(`signIn.errors.${code}`, t("signIn.failed")), passwordRef.current);
        return;
      }
      router.replace(safeCallback(callbackUrl));
      router.refresh();
    } catch {
      fail(t("signIn.unreachable"), passwordRef.current);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field
        ref={emailRef}
        label={t("fields.email")}
        id="email"
        name="email"
        type="email"
        autoComplete="email"
        required
        autoFocus
        aria-describedby={error ? "form-error" : undefined}
      />
      <Field
        ref={passwordRef}
        label={t("fields.password")}
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        aria-describedby={error ? "form-error" : undefined}
        aria-invalid={error ? true : undefined}
      />
      <FormError message={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? t("signIn.pending") : t("signIn.submit")}
      </Button>
      <p className="text-center text-sm text-zinc-600">
        {t("signIn.noAccount")}{" "}
        <Link href="/register" className="font-medium text-zinc-900 underline">
          {t("signIn.createOne")}
        </Link>
      </p>
    </form>
  );
}
