"use client";

import { useFormat, useT } from "@/lib/i18n/client";
import { snippetParts } from "@/lib/search/snippet";
import type { SearchResult } from "./use-search";

/** The marked excerpt, rendered as text: the <mark> tags become elements, everything else stays plain text. */
function Snippet({ snippet }: { snippet: string }) {
  return (
    <>
      {snippetParts(snippet).map((part, i) =>
        part.marked ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-zinc-900">
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never reorder
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** One result in the listbox: its conversation's title, when it was said, and the marked excerpt. */
export function SearchOption({
  id,
  result: r,
  active,
  onPick,
  onHover,
}: {
  id: string;
  result: SearchResult;
  active: boolean;
  onPick: () => void;
  onHover: () => void;
}) {
  const t = useT("search");
  const format = useFormat();
  return (
    // The input keeps focus (aria-activedescendant); a pointer still picks a result by clicking it.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keyboard
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      onClick={onPick}
      onMouseMove={onHover}
      className={`cursor-pointer rounded-md px-3 py-2 ${active ? "bg-zinc-100" : ""}`}
      data-testid="search-result"
    >
      <div className="flex items-baseline gap-2">
        <span className="min-w-0 flex-1 truncate text-sm font-medium">{r.title || t("untitled")}</span>
        <time dateTime={r.createdAt} className="shrink-0 text-xs text-zinc-500">
          {format.dateTime(r.createdAt)}
        </time>
      </div>
      <p className="mt-0.5 line-clamp-2 text-sm text-zinc-700 break-words">
        <span className="font-medium text-zinc-600" data-testid="search-result-by">
          {r.role === "assistant" ? t("byAssistant") : t("byUser")}
          {r.version && ` (${t("version", r.version)})`}:{" "}
        </span>
        <Snippet snippet={r.snippet} />
      </p>
    </div>
  );
}
