"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useFormat, useT } from "@/lib/i18n/client";
import type { SessionReviewView } from "./types";

type Session = SessionReviewView["session"];

/** The reviewed conversation's title, owner and dates, and its Delete button. */
export function ReviewHeader({ session, onDelete }: { session: Session; onDelete: () => void }) {
  const t = useT("admin");
  const format = useFormat();
  const messagesWord = (count: number) => t("review.messages", { count });
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <p className="text-sm">
          <Link href="/admin/sessions" className="text-zinc-600 underline">
            {t("review.sessions")}
          </Link>
        </p>
        <h1 className="truncate text-2xl font-semibold" data-testid="admin-session-title">
          {session.title || t("untitled")}
        </h1>
        <p className="mt-1 text-sm text-zinc-600">
          {t("review.meta", {
            name: session.owner.name,
            email: session.owner.email,
            messages: messagesWord(session.messageCount),
            created: format.dateTime(session.createdAt),
            updated: format.dateTime(session.updatedAt),
          })}
        </p>
      </div>
      <Button variant="danger" onClick={onDelete} data-testid="admin-delete-session">
        {t("review.delete")}
      </Button>
    </div>
  );
}

/** Asks before a reviewed conversation is deleted, saying what goes with it. */
export function ReviewDeleteDialog({
  session,
  open,
  pending,
  onCancel,
  onConfirm,
}: {
  session: Session;
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const t = useT("admin");
  const messagesWord = (count: number) => t("review.messages", { count });
  return (
    <ConfirmDialog
      open={open}
      title={t("review.confirmTitle")}
      confirmLabel={t("review.confirmLabel")}
      pending={pending}
      onCancel={onCancel}
      onConfirm={onConfirm}
      body={
        <div className="space-y-2">
          <p>
            {t("review.confirmBody", {
              title: session.title,
              email: session.owner.email,
              messages: messagesWord(session.messageCount),
            })}
          </p>
          {session.turnInProgress && <p>{t("review.confirmStreaming")}</p>}
          <p className="font-medium text-zinc-900">{t("review.cannotUndo")}</p>
        </div>
      }
    />
  );
}
