import Link from "next/link";
import { getT } from "@/lib/i18n/server";

/** A plain GET form: works without JavaScript, keeps the search in the URL (shareable, back button). */
export async function SearchForm({
  action,
  q,
  label,
  placeholder,
}: {
  action: string;
  q: string;
  label: string;
  placeholder: string;
}) {
  const t = await getT("admin");
  return (
    <search>
      <form action={action} method="get" className="flex w-full items-center gap-2 sm:w-auto">
        <label htmlFor="admin-search" className="sr-only">
          {label}
        </label>
        <input
          id="admin-search"
          name="q"
          type="search"
          defaultValue={q}
          placeholder={placeholder}
          maxLength={200}
          data-testid="admin-search"
          className="min-w-0 flex-1 rounded-md sm:w-72 sm:flex-none border border-zinc-300 bg-white px-3 py-2 text-sm focus:border-zinc-900 focus:outline-none focus:ring-1 focus:ring-zinc-900"
        />
        <button
          type="submit"
          className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
        >
          {t("search.submit")}
        </button>
        {q && (
          <Link href={action} className="text-sm text-zinc-600 underline">
            {t("search.clear")}
          </Link>
        )}
      </form>
    </search>
  );
}
