"use client";

import Link from "next/link";
import type { Ref } from "react";
import { Button } from "@/components/ui/button";
import { useFormat, useT } from "@/lib/i18n/client";
import { type MemoryView, sourceHref } from "./types";

/** A fact as read: its text, when and where it was learned (a link to the message), and its actions. */
export function MemoryFact({
  memory,
  editButton,
  onEdit,
  onDelete,
}: {
  memory: MemoryView;
  editButton: Ref<HTMLButtonElement>;
  onEdit: () => void;
  onDelete: (memory: MemoryView) => void;
}) {
  const t = useT("memory");
  const format = useFormat();
  const replaced = Boolean(memory.supersededById);
  const edited = memory.updatedAt !== memory.createdAt;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-4">
      <div className="min-w-0 flex-1">
        <p
          className={`whitespace-pre-wrap [overflow-wrap:anywhere] ${replaced ? "text-zinc-500 line-through decoration-zinc-400" : "text-zinc-900"}`}
          data-testid="memory-text"
        >
          {memory.text}
        </p>
        <p className="mt-1 text-xs text-zinc-500">
          {replaced && (
            <span
              className="mr-2 rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900 no-underline"
              title={t("list.replacedHint")}
              data-testid="memory-replaced"
            >
              {t("list.replaced")}
            </span>
          )}
          {memory.sourceSessionId === null || memory.sourceMessageId === null ? (
            <span data-testid="memory-source-deleted">
              {t("list.learnedInDeleted", { when: format.dateTime(memory.createdAt) })}
            </span>
          ) : (
            t.rich("list.learnedIn", {
              when: format.dateTime(memory.createdAt),
              title: memory.sourceSessionTitle ?? "",
              link: (chunks) => (
                <Link
                  href={sourceHref({
                    sourceSessionId: memory.sourceSessionId as string,
                    sourceMessageId: memory.sourceMessageId as string,
                  })}
                  className="underline hover:text-zinc-900"
                  data-testid="memory-source"
                >
                  {chunks}
                </Link>
              ),
            })
          )}
          {edited && <> · {t("list.edited", { when: format.dateTime(memory.updatedAt) })}</>}
        </p>
        {replaced && <p className="sr-only">{t("list.replacedHint")}</p>}
      </div>
      <div className="flex shrink-0 gap-1">
        {!replaced && (
          <button
            ref={editButton}
            type="button"
            className="rounded-md px-2 py-1 text-sm font-medium text-zinc-700 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900"
            onClick={onEdit}
            aria-label={t("list.editAria", { text: memory.text })}
            data-testid="memory-edit"
          >
            {t("list.edit")}
          </button>
        )}
        <Button
          variant="ghost"
          className="px-2 py-1 text-red-700 hover:bg-red-50"
          onClick={() => onDelete(memory)}
          aria-label={t("list.deleteAria", { text: memory.text })}
          data-testid="memory-delete"
        >
          {t("list.delete")}
        </Button>
      </div>
    </div>
  );
}
