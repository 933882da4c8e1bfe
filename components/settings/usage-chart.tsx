import { getFormat, getT } from "@/lib/i18n/server";
import type { UsageSeries } from "@/lib/usage/series";

// The 30-day usage chart: an SVG of stacked columns (one per day, one colour per model) with a title per column
// for pointers, and the same numbers as a table for everyone else. Colours come from the theme's palette, so they
// follow light and dark.

const COLOURS = [
  "var(--color-sky-700)",
  "var(--color-amber-700)",
  "var(--color-emerald-800)",
  "var(--color-red-700)",
  "var(--color-zinc-500)",
];
const colourOf = (models: string[], model: string) => COLOURS[models.indexOf(model) % COLOURS.length];

const W = 10;
const H = 100;

export async function UsageChart({ series }: { series: UsageSeries }) {
  const t = await getT("settings");
  const format = await getFormat();
  const n = (v: number) => format.number(v);
  return (
    <div className="space-y-4">
      <figure>
        <svg
          viewBox={`0 0 ${series.columns.length * W} ${H}`}
          preserveAspectRatio="none"
          className="h-40 w-full rounded-md border border-zinc-200"
          role="img"
          aria-label={t("usage.chart")}
          data-testid="usage-chart"
        >
          {series.columns.map((c, i) => {
            let y = H;
            return (
              <g key={c.day} data-day={c.day} data-total={c.total}>
                <title>{t("usage.day", { day: format.date(`${c.day}T00:00:00Z`), tokens: c.total })}</title>
                <rect x={i * W} y={0} width={W} height={H} fill="transparent" />
                {c.segments.map((s) => {
                  const h = (s.tokens / series.max) * (H - 4);
                  y -= h;
                  return (
                    <rect
                      key={s.model}
                      x={i * W + 1}
                      y={y}
                      width={W - 2}
                      height={h}
                      fill={colourOf(series.models, s.model)}
                    />
                  );
                })}
              </g>
            );
          })}
        </svg>
        <figcaption className="mt-2 flex flex-wrap gap-3 text-xs text-zinc-700">
          <span className="sr-only">{t("usage.legend")}</span>
          {series.models.map((m) => (
            <span key={m} className="inline-flex items-center gap-1">
              <span
                aria-hidden
                className="inline-block size-3 rounded-sm"
                style={{ background: colourOf(series.models, m) }}
              />
              {m}
            </span>
          ))}
        </figcaption>
      </figure>
      <table className="w-full text-left text-sm" data-testid="usage-table">
        <caption className="mb-2 text-left font-medium">{t("usage.table")}</caption>
        <thead className="border-b border-zinc-200 text-xs text-zinc-600">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t("usage.model")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("usage.prompt")}
            </th>
            <th scope="col" className="py-1 pr-3 text-right font-medium">
              {t("usage.completion")}
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              {t("usage.answers")}
            </th>
          </tr>
        </thead>
        <tbody>
          {series.totals.map((r) => (
            <tr
              key={r.model}
              className="border-b border-zinc-100"
              data-testid="usage-row"
              data-model={r.model}
            >
              <th scope="row" className="py-1 pr-3 font-normal">
                {r.model}
              </th>
              <td className="py-1 pr-3 text-right tabular-nums">{n(r.promptTokens)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{n(r.completionTokens)}</td>
              <td className="py-1 text-right tabular-nums">{n(r.answers)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
