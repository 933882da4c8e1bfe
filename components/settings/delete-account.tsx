"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { sendJson } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

// Settings → Delete my account. The password is asked in the confirmation; the server deletes everything, answers
// with the receipt and clears the session cookie, so the page shows the receipt and a way back to sign-in (a
// refresh would only send a signed-out visitor to /login before they have read it).

export function DeleteAccount() {
  const t = useT("settings");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);

  async function confirm() {
    setPending(true);
    setFailure(null);
    try {
      const body = await sendJson<{ receipt: Receipt }>("/api/me", "DELETE", { password });
      setReceipt(body.receipt);
      setOpen(false);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setPending(false);
      setPassword("");
    }
  }

  if (receipt) {
    return (
      <section aria-label={t("deleteAccount.receipt")} className="space-y-3" data-testid="account-deleted">
        <p role="status" className="font-medium">
          {t("deleteAccount.done")}
        </p>
        <ReceiptView receipt={receipt} />
        <a href="/login" className="inline-block text-sm underline" data-testid="account-deleted-sign-in">
          {t("deleteAccount.signIn")}
        </a>
      </section>
    );
  }

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-600">{t("deleteAccount.body")}</p>
      {failure && !open && (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="delete-account-error"
        >
          {failure}
        </p>
      )}
      <Button variant="danger" onClick={() => setOpen(true)} data-testid="delete-account">
        {t("deleteAccount.open")}
      </Button>
      <ConfirmDialog
        open={open}
        title={t("deleteAccount.dialogTitle")}
        confirmLabel={t("deleteAccount.confirm")}
        pending={pending}
        onCancel={() => {
          setOpen(false);
          setPassword("");
        }}
        onConfirm={() => void confirm()}
        body={
          <div className="space-y-3">
            <p>{t("deleteAccount.body")}</p>
            {failure && (
              <p
                role="alert"
                className="rounded-md bg-red-50 p-2 text-red-800"
                data-testid="delete-account-error"
              >
                {failure}
              </p>
            )}
            <Field
              id="delete-account-password"
              label={t("deleteAccount.password")}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              data-testid="delete-account-password"
            />
          </div>
        }
      />
    </div>
  );
}
