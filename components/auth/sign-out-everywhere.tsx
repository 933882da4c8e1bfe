"use client";

import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { answered, request, serverErrorOf } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/**
 * Revokes all of the user's sessions (every device, this one included), then leaves for the login page. If the
 * revocation fails nothing is signed out and the reason is shown: the user must not believe the other devices
 * were signed out when they were not.
 */
export function SignOutEverywhereButton({ className = "" }: { className?: string }) {
  const t = useT("auth");
  const errorText = useErrorText();
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setPending(true);
    setError(null);
    try {
      const signedOut = await request("/api/auth/sign-out-everywhere", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }).then(
        () => null,
        // Already signed out here (401): the local sign-out below still runs.
        (e: unknown) => (answered(e) && e.status === 401 ? null : e),
      );
      if (answered(signedOut)) {
        setError(errorText(serverErrorOf(signedOut), t("signOut.failed")));
        return;
      }
      if (signedOut) throw signedOut;
      // redirect: false keeps the navigation on this host; next-auth would build it from NEXTAUTH_URL.
      await signOut({ redirect: false });
      router.replace("/login");
      router.refresh();
    } catch {
      setError(errorText({ status: 0 }));
    } finally {
      setPending(false);
    }
  }
  return (
    <div className={className}>
      <Button
        variant="ghost"
        onClick={() => void run()}
        disabled={pending}
        data-testid="sign-out-everywhere"
        title={t("signOut.everywhereTitle")}
        className="px-2 py-1 text-xs"
      >
        {pending ? t("signOut.pending") : t("signOut.everywhere")}
      </Button>
      {error && (
        <p role="alert" className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
