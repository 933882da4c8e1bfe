import Link from "next/link";
import { getT } from "@/lib/i18n/server";

/** Keyset pagination links: back to the first page, and on to the next one when there is one. */
export async function Pager({
  path,
  q,
  cursor,
  nextCursor,
  shown,
  noun,
}: {
  path: string;
  q?: string;
  cursor?: string;
  nextCursor: string | null;
  shown: number;
  noun: "session" | "user" | "entry";
}) {
  const t = await getT("admin");
  const href = (c?: string) => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (c) params.set("cursor", c);
    const s = params.toString();
    return s ? `${path}?${s}` : path;
  };
  const link =
    "rounded-md border border-zinc-300 bg-white px-3 py-1.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900";
  return (
    <nav className="mt-3 flex items-center gap-2 text-sm" aria-label={t("pager.label")}>
      <span className="text-zinc-600">
        {t("pager.shown", { noun, count: shown })}
        {cursor ? t("pager.laterPage") : ""}
      </span>
      <span className="flex-1" />
      {cursor && (
        <Link href={href()} className={link} data-testid="first-page">
          {t("pager.first")}
        </Link>
      )}
      {nextCursor && (
        <Link href={href(nextCursor)} className={link} data-testid="next-page">
          {t("pager.next")}
        </Link>
      )}
    </nav>
  );
}
