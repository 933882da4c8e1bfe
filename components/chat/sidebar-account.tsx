"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { SignOutEverywhereButton } from "@/components/auth/sign-out-everywhere";
import { LocaleSwitch } from "@/components/i18n/locale-switch";
import { MemoryLink } from "@/components/memory/memory-link";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { Button } from "@/components/ui/button";
import { useErrorText, useT } from "@/lib/i18n/client";
import { Shortcuts } from "./shortcuts";

const LINK = "rounded-md px-2 py-1 text-zinc-700 hover:bg-zinc-100";

/** The sidebar's foot: who is signed in, their pages, signing out, and the display switches. */
export function SidebarAccount({
  user,
  onError,
}: {
  user: { name: string; email: string; role: "USER" | "ADMIN" };
  onError: (message: string) => void;
}) {
  const t = useT("sidebar");
  const tAuth = useT("auth");
  const tData = useT("data");
  const errorText = useErrorText();
  const router = useRouter();

  // redirect: false keeps the navigation on this host; next-auth would build it from NEXTAUTH_URL.
  async function signOutHere() {
    try {
      await signOut({ redirect: false });
      router.replace("/login");
      router.refresh();
    } catch (e) {
      onError(errorText(e));
    }
  }

  return (
    <div className="border-t border-zinc-200 p-3 text-sm">
      <p className="truncate font-medium" data-testid="current-user">
        {user.name}
      </p>
      <p className="truncate text-xs text-zinc-500">{user.email}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        {user.role === "ADMIN" && (
          <Link href="/admin" className={LINK}>
            {t("admin")}
          </Link>
        )}
        <MemoryLink className={LINK} />
        <Link href="/settings/keys" className={LINK} data-testid="api-keys-link">
          {t("apiKeys")}
        </Link>
        <Link href="/settings/data" className={LINK} data-testid="data-link">
          {tData("link")}
        </Link>
        <Button variant="ghost" onClick={() => void signOutHere()} data-testid="sign-out">
          {tAuth("signOut.here")}
        </Button>
      </div>
      <SignOutEverywhereButton className="mt-1" />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <ThemeSwitch />
        <LocaleSwitch />
        <Shortcuts className="px-2 py-1 text-xs" />
      </div>
    </div>
  );
}
