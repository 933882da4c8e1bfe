import Link from "next/link";

/** Keyset pagination links: back to the first page, and on to the next one when there is one. */
export function Pager({
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
  noun: string;
}) {
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
    <nav className="mt-3 flex items-center gap-2 text-sm" aria-label="Pages">
      <span className="text-zinc-600">
        {shown} {noun}
        {cursor ? " (later page)" : ""}
      </span>
      <span className="flex-1" />
      {cursor && (
        <Link href={href()} className={link} data-testid="first-page">
          ← First page
        </Link>
      )}
      {nextCursor && (
        <Link href={href(nextCursor)} className={link} data-testid="next-page">
          Next page →
        </Link>
      )}
    </nav>
  );
}
