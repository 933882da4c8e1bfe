"use client";

import { useT } from "@/lib/i18n/client";

/** Asks to reset a user's password; not offered on one's own account (that is Settings → Password). */
export function ResetPasswordButton({
  className,
  self,
  onClick,
}: {
  className: string;
  self: boolean;
  onClick: () => void;
}) {
  const t = useT("admin");
  return (
    <button
      type="button"
      className={`${className} text-zinc-700 hover:bg-zinc-100`}
      onClick={onClick}
      disabled={self}
      title={self ? t("users.cannotResetSelf") : undefined}
      data-testid="user-reset-password"
    >
      {t("users.resetPassword")}
    </button>
  );
}
