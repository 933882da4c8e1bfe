"use client";

import { useEffect, useState } from "react";
import { useT } from "@/lib/i18n/client";

export const OPEN_EVENT = "recall:open-search";

/** Opens the search dialog (mounted once in the chat layout). */
function openSearch(): void {
  document.dispatchEvent(new Event(OPEN_EVENT));
}

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

/** The sidebar's button that opens the dialog, naming its shortcut. */
export function SearchButton({ className = "" }: { className?: string }) {
  const t = useT("search");
  const [keys, setKeys] = useState("Ctrl+K");
  useEffect(() => setKeys(isMac() ? "⌘K" : "Ctrl+K"), []);
  return (
    <button
      type="button"
      onClick={openSearch}
      aria-haspopup="dialog"
      aria-label={t("buttonLabel", { keys })}
      title={t("buttonLabel", { keys })}
      className={`rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 ${className}`}
      data-testid="search-button"
    >
      {t("button")}
    </button>
  );
}
