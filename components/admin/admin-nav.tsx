"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { ThemeSwitch } from "@/components/theme/theme-switch";

const sections = [
  { href: "/admin", label: "Overview", exact: true },
  { href: "/admin/sessions", label: "Sessions" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/invites", label: "Invites" },
  { href: "/admin/audit", label: "Audit log" },
];

export function AdminNav({ user }: { user: { name: string; email: string } }) {
  const pathname = usePathname();
  return (
    <nav className="mx-auto flex max-w-7xl flex-wrap items-center gap-1 px-4 py-2 text-sm" aria-label="Admin">
      <span className="mr-3 font-semibold">Recall admin</span>
      {sections.map((s) => {
        const active = s.exact
          ? pathname === s.href
          : pathname === s.href || pathname.startsWith(`${s.href}/`);
        return (
          <Link
            key={s.href}
            href={s.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-zinc-900 ${
              active ? "bg-zinc-900 text-white" : "text-zinc-700 hover:bg-zinc-100"
            }`}
          >
            {s.label}
          </Link>
        );
      })}
      <span className="flex-1" />
      <span className="hidden text-xs text-zinc-500 sm:inline" title={user.email}>
        Signed in as {user.name}
      </span>
      <ThemeSwitch />
      <Link href="/" className="rounded-md px-3 py-1.5 text-zinc-600 hover:bg-zinc-100">
        Back to chat
      </Link>
    </nav>
  );
}
