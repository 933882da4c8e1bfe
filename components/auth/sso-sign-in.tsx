"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { safeCallback } from "./login-form";

/**
 * "Sign in with <provider>" beside the password form, shown only when single sign-on is configured (OIDC_*). The
 * browser goes to the provider and comes back signed in, or to the sign-in page with the reason.
 */
export function SsoSignIn({ name, callbackUrl }: { name: string; callbackUrl: string | null }) {
  const t = useT("auth");
  const [pending, setPending] = useState(false);

  async function onClick() {
    setPending(true);
    try {
      // Navigates away on success; on failure next-auth lands on /login?error=….
      await signIn("oidc", { callbackUrl: safeCallback(callbackUrl) });
    } catch {
      setPending(false);
    }
  }

  return (
    <div className="mt-6 space-y-4">
      <div className="flex items-center gap-3 text-xs text-zinc-500" aria-hidden="true">
        <span className="h-px flex-1 bg-zinc-200" />
        {t("signIn.or")}
        <span className="h-px flex-1 bg-zinc-200" />
      </div>
      <Button
        variant="secondary"
        className="w-full"
        onClick={onClick}
        disabled={pending}
        data-testid="sso-sign-in"
      >
        {pending ? t("signIn.ssoPending", { name }) : t("signIn.sso", { name })}
      </Button>
    </div>
  );
}
