"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect } from "react";

const PASSWORD_PAGE = "/settings/password";

/**
 * While an administrator's password reset is in force, every page of the app leads to the password change; the
 * layout cannot see the path, the browser's router can.
 */
export function PasswordGate({ required, children }: { required: boolean; children: React.ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const elsewhere = required && pathname !== PASSWORD_PAGE;
  useEffect(() => {
    if (elsewhere) router.replace(PASSWORD_PAGE);
  }, [elsewhere, router]);
  return elsewhere ? null : children;
}
