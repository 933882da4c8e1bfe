import Link from "next/link";
import { getFormat, getT } from "@/lib/i18n/server";

export async function StatCard({
  label,
  value,
  note,
  href,
  testId,
}: {
  label: string;
  value: number;
  note?: string;
  href?: string;
  testId: string;
}) {
  const format = await getFormat();
  const body = (
    <>
      <p className="text-sm text-zinc-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid={testId}>
        {format.number(value)}
      </p>
      {note && <p className="mt-1 text-xs text-zinc-500">{note}</p>}
    </>
  );
  const box = "block rounded-lg border border-zinc-200 bg-white p-4";
  return href ? (
    <Link
      href={href}
      className={`${box} hover:border-zinc-400 focus-visible:outline-2 focus-visible:outline-zinc-900`}
    >
      {body}
    </Link>
  ) : (
    <div className={box}>{body}</div>
  );
}

/** Messages per UTC day as plain CSS bars; the same numbers are in a table for screen readers. */
export async function MessagesChart({ perDay }: { perDay: { day: string; count: number }[] }) {
  const [t, format] = await Promise.all([getT("admin"), getFormat()]);
  const max = Math.max(1, ...perDay.map((d) => d.count));
  const total = perDay.reduce((sum, d) => sum + d.count, 0);
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-4" data-testid="messages-chart">
      <figcaption className="mb-3 flex items-baseline justify-between text-sm">
        <span className="font-medium">{t("overview.chartTitle")}</span>
        <span className="text-xs text-zinc-500">
          {t("overview.chartRange", { days: perDay.length, total: format.number(total) })}
        </span>
      </figcaption>
      <div className="flex h-40 items-end gap-1" aria-hidden="true">
        {perDay.map((d) => (
          <div key={d.day} className="flex h-full flex-1 flex-col justify-end" title={`${d.day}: ${d.count}`}>
            <div
              className={`w-full rounded-t ${d.count > 0 ? "bg-zinc-800" : "bg-zinc-200"}`}
              style={{ height: d.count > 0 ? `${Math.max(2, (d.count / max) * 100)}%` : "2px" }}
            />
          </div>
        ))}
      </div>
      <div className="mt-1 flex gap-1 text-center text-[10px] text-zinc-500" aria-hidden="true">
        {perDay.map((d, i) => (
          <span key={d.day} className="flex-1 tabular-nums">
            {i % 2 === perDay.length % 2 ? "" : d.day.slice(8)}
          </span>
        ))}
      </div>
      <table className="sr-only">
        <caption>{t("overview.chartCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("overview.chartDay")}</th>
            <th scope="col">{t("overview.chartMessages")}</th>
          </tr>
        </thead>
        <tbody>
          {perDay.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {total === 0 && <p className="mt-2 text-sm text-zinc-500">{t("overview.chartEmpty")}</p>}
    </figure>
  );
}
