"use client";

import { useId, useState } from "react";
import { useT } from "@/lib/i18n/client";
import { SessionList, type SessionListContext } from "./session-list";

/** The sidebar's foot of archived conversations: closed by default; open, they can be opened and restored. */
export function ArchivedSection({ ctx }: { ctx: SessionListContext }) {
  const t = useT("sidebar");
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-3 border-t border-zinc-200 pt-2">
      <button
        type="button"
        className="flex w-full items-center gap-1.5 rounded-md px-2 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        onClick={() => setOpen(!open)}
        data-testid="archived-toggle"
      >
        <span aria-hidden="true" className="w-3 text-xs text-zinc-600">
          {open ? "▾" : "▸"}
        </span>
        {t("archived.title")}
      </button>
      {open && (
        <div id={`${id}-list`}>
          <SessionList
            filter={{ archived: true }}
            ctx={ctx}
            empty={t("archived.empty")}
            testId="archived-list"
          />
        </div>
      )}
    </div>
  );
}
