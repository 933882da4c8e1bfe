"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import { OPEN_EVENT } from "./search-button";
import { SearchResults } from "./search-results";
import { type SearchResult, useSearch } from "./use-search";

// Search across the user's conversations: a modal dialog opened by Ctrl/Cmd+K anywhere in the chat, or by the
// sidebar's Search button (openSearch). A result opens its conversation at the message (/c/:id?message=…, which
// use-message-anchor scrolls to). The input is a combobox: arrows move through the results, Enter opens one,
// Escape closes the dialog and the native <dialog> gives focus back to where it was.

export function SearchDialog() {
  const t = useT("search");
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [active, setActive] = useState(0);
  const search = useSearch(open ? text : "");
  const { results } = search;

  useEffect(() => {
    const show = () => {
      if (!dialog.current?.open) dialog.current?.showModal();
      setOpen(true);
      requestAnimationFrame(() => input.current?.select());
    };
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === "k") {
        e.preventDefault();
        show();
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener(OPEN_EVENT, show);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener(OPEN_EVENT, show);
    };
  }, []);

  // A new query starts at its first result.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query sent changes
  useEffect(() => setActive(0), [search.q]);

  function go(result: SearchResult | undefined) {
    if (!result) return;
    dialog.current?.close();
    router.push(`/c/${result.sessionId}?message=${encodeURIComponent(result.messageId)}`);
  }

  function onInputKey(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (results.length === 0) return;
      const step = e.key === "ArrowDown" ? 1 : -1;
      const next = (active + step + results.length) % results.length;
      setActive(next);
      document.getElementById(`${listId}-${next}`)?.scrollIntoView({ block: "nearest" });
    } else if (e.key === "Enter") {
      e.preventDefault();
      go(results[active]);
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${listId}-title`}
      onClose={() => setOpen(false)}
      className="m-auto mt-[10vh] w-[min(40rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40"
      data-testid="search-dialog"
    >
      <div className="flex items-center gap-2 border-b border-zinc-200 p-3">
        <h2 id={`${listId}-title`} className="sr-only">
          {t("title")}
        </h2>
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-label={t("field")}
          aria-expanded={results.length > 0}
          aria-controls={`${listId}-list`}
          aria-autocomplete="list"
          aria-activedescendant={results.length > 0 ? `${listId}-${active}` : undefined}
          placeholder={t("placeholder")}
          maxLength={200}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onInputKey}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-zinc-900"
          data-testid="search-input"
        />
        <Button variant="ghost" onClick={() => dialog.current?.close()}>
          {t("close")}
        </Button>
      </div>
      <SearchResults search={search} listId={listId} active={active} onPick={go} onHover={setActive} />
    </dialog>
  );
}
