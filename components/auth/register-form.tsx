"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { answered, request, serverErrorOf } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import { FormError } from "./auth-card";

export function RegisterForm({ needsInvite = false }: { needsInvite?: boolean }) {
  const t = useT("auth");
  const errorText = useErrorText();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      ...(needsInvite ? { inviteCode: String(form.get("inviteCode") ?? "") } : {}),
    };
    setPending(true);
    setError(null);
    try {
      const refused = await request("/api/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(
        () => null,
        (e: unknown) => {
          if (answered(e)) return e;
          throw e;
        },
      );
      if (refused) {
        setError(errorText(serverErrorOf(refused), t("register.failed")));
        return;
      }
      const result = await signIn("credentials", {
        email: body.email,
        password: body.password,
        redirect: false,
      });
      if (!result?.ok) {
        router.replace("/login");
        return;
      }
      router.replace("/");
      router.refresh();
    } catch {
      setError(t("signIn.unreachable"));
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field label={t("fields.name")} id="name" name="name" autoComplete="name" required autoFocus />
      <Field label={t("fields.email")} id="email" name="email" type="email" autoComplete="email" required />
      <Field
        label={t("fields.password")}
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
      />
      <p className="text-xs text-zinc-500">{t("register.passwordHint")}</p>
      {needsInvite && (
        <Field label={t("fields.inviteCode")} id="inviteCode" name="inviteCode" autoComplete="off" required />
      )}
      <FormError message={error} />
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? t("register.pending") : t("register.submit")}
      </Button>
      <p className="text-center text-sm text-zinc-600">
        {t("register.haveAccount")}{" "}
        <Link href="/login" className="font-medium text-zinc-900 underline">
          {t("register.signIn")}
        </Link>
      </p>
    </form>
  );
}
