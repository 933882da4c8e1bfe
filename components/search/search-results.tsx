"use client";

import { Button } from "@/components/ui/button";
import { useErrorText, useT } from "@/lib/i18n/client";
import { SearchOption } from "./search-option";
import type { SearchResult, useSearch } from "./use-search";

/** The dialog's status line, a failure with Retry, the results listbox and "More results". */
export function SearchResults({
  search,
  listId,
  active,
  onPick,
  onHover,
}: {
  search: ReturnType<typeof useSearch>;
  /** The listbox's id; option `i` is `${listId}-${i}`. */
  listId: string;
  active: number;
  onPick: (result: SearchResult) => void;
  onHover: (index: number) => void;
}) {
  const t = useT("search");
  const errorText = useErrorText();
  const { results } = search;
  const status = search.error
    ? null
    : search.isLoading || search.pending
      ? t("loading")
      : search.q && results.length === 0
        ? t("empty", { q: search.q })
        : search.q
          ? t("results", { count: results.length })
          : t("hint");
  return (
    <>
      <p role="status" className="px-4 pt-2 text-xs text-zinc-500" data-testid="search-status">
        {status}
      </p>
      {search.error && (
        <div
          role="alert"
          className="mx-3 mt-2 flex items-center gap-2 rounded-md bg-red-50 p-2 text-sm text-red-800"
        >
          <span className="flex-1">{t("failed", { reason: errorText(search.error) })}</span>
          <Button variant="secondary" onClick={() => void search.retry()}>
            {t("retry")}
          </Button>
        </div>
      )}
      <div
        id={`${listId}-list`}
        role="listbox"
        aria-label={t("title")}
        className="max-h-[60vh] overflow-y-auto p-2"
        data-testid="search-results"
      >
        {results.map((r, i) => (
          <SearchOption
            key={r.messageId}
            id={`${listId}-${i}`}
            result={r}
            active={i === active}
            onPick={() => onPick(r)}
            onHover={() => onHover(i)}
          />
        ))}
      </div>
      {search.hasMore && (
        <div className="border-t border-zinc-200 p-2 text-center">
          <Button
            variant="secondary"
            disabled={search.loadingMore}
            onClick={() => void search.loadMore()}
            data-testid="search-more"
          >
            {search.loadingMore ? t("loadingMore") : t("more")}
          </Button>
        </div>
      )}
    </>
  );
}
