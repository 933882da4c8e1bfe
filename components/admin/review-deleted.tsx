"use client";

import Link from "next/link";
import type { RefObject } from "react";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { useT } from "@/lib/i18n/client";
import type { SessionReviewView } from "./types";

/** What is left of a reviewed conversation once it is deleted: the receipt, and the way back. */
export function ReviewDeleted({
  session,
  receipt,
  headingRef,
}: {
  session: SessionReviewView["session"];
  receipt: Receipt;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const t = useT("admin");
  return (
    <section
      className="mx-auto max-w-lg space-y-4 rounded-lg border border-zinc-200 bg-white p-6"
      data-testid="admin-delete-done"
    >
      <h1 ref={headingRef} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
        {t("review.deleted")}
      </h1>
      <p className="text-sm text-zinc-600">
        {t("review.deletedBody", { title: session.title, email: session.owner.email })}
      </p>
      <ReceiptView receipt={receipt} />
      <div className="flex gap-3 text-sm">
        <Link href="/admin/sessions" className="font-medium underline" data-testid="back-to-sessions">
          {t("review.backToSessions")}
        </Link>
        <Link href="/admin/audit" className="underline">
          {t("review.auditLog")}
        </Link>
      </div>
    </section>
  );
}
