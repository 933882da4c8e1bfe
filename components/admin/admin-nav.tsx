"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { LocaleSwitch } from "@/components/i18n/locale-switch";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { useT } from "@/lib/i18n/client";

const sections = [
  { href: "/admin", label: "nav.overview", exact: true },
  { href: "/admin/sessions", label: "nav.sessions" },
  { href: "/admin/users", label: "nav.users" },
  { href: "/admin/invites", label: "nav.invites" },
  { href: "/admin/tools", label: "nav.tools" },
  { href: "/admin/models", label: "nav.models" },
  { href: "/admin/usage", label: "nav.usage" },
  { href: "/admin/audit", label: "nav.audit" },
] as const;

export function AdminNav({ user }: { user: { name: string; email: string } }) {
  const t = useT("admin");
  const pathname = usePathname();
  return (
    <nav
      className="mx-auto flex max-w-7xl flex-wrap items-center gap-1 px-4 py-2 text-sm"
      aria-label={t("nav.label")}
    >
      <span className="mr-3 font-semibold">{t("nav.brand")}</span>
      {sections.map((s) => {
        const active =
          "exact" in s ? pathname === s.href : pathname === s.href || pathname.startsWith(`${s.href}/`);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-zinc-900 ${
              active ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"
            }`}
          >
            {t(s.label)}
          </Link>
        );
      })}
      <span className="flex-1" />
      <span className="hidden text-xs text-zinc-500 sm:inline" title={user.email}>
        {t("nav.signedInAs", { name: user.name })}
      </span>
      <ThemeSwitch />
      <LocaleSwitch />
      <Link href="/" className="rounded-md px-3 py-1.5 text-zinc-600 hover:bg-zinc-100">
        {t("nav.backToChat")}
      </Link>
    </nav>
  );
}
