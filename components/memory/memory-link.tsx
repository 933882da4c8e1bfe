"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useT } from "@/lib/i18n/client";

/** The account menu's link to /memory (long-term memory). */
export function MemoryLink({ className }: { className?: string }) {
  const t = useT("memory");
  const here = usePathname() === "/memory";
  return (
    <Link
      href="/memory"
      className={className}
      aria-current={here ? "page" : undefined}
      data-testid="memory-link"
    >
      {t("navLink")}
    </Link>
  );
}
