"use client";

import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { useT } from "@/lib/i18n/client";

/**
 * What the last action on a user did: its error (with its code), its confirmation, a deletion's receipt, or a
 * password reset's one-time password.
 */
export function UserNotices({
  error,
  done,
  receipt,
  oneTime,
  onDismiss,
}: {
  error: { code: string; message: string } | null;
  done: string | null;
  receipt: { email: string; receipt: Receipt } | null;
  /** A password reset's one-time password: shown here once, never stored in the page. */
  oneTime: { email: string; password: string } | null;
  onDismiss: () => void;
}) {
  const t = useT("admin");
  return (
    <>
      {error && (
        <p
          role="alert"
          className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="admin-error"
          data-code={error.code}
        >
          {error.message} <span className="font-mono text-xs text-red-600">({error.code})</span>
        </p>
      )}
      {done && !receipt && (
        <p
          role="status"
          className="mb-3 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="admin-status"
        >
          {done}
        </p>
      )}
      {oneTime && (
        <p className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {t("users.oneTimePassword", { email: oneTime.email })}{" "}
          <code className="select-all font-mono font-semibold" data-testid="admin-one-time-password">
            {oneTime.password}
          </code>
        </p>
      )}
      {receipt && (
        <section
          className="mb-3 rounded-md border border-zinc-200 bg-white p-4"
          aria-label={t("users.receipt")}
        >
          <div className="mb-2 flex items-start justify-between gap-3">
            <p role="status" className="text-sm font-medium" data-testid="admin-status">
              {t("users.wasDeleted", { email: receipt.email })}
            </p>
            <button type="button" className="text-xs underline" onClick={onDismiss}>
              {t("users.dismiss")}
            </button>
          </div>
          <ReceiptView receipt={receipt.receipt} />
        </section>
      )}
    </>
  );
}
