// The usage chart's shape, from the rows of GET /api/me/usage: one column per calendar day (days without answers
// included, so the axis is time), each a stack of the models' tokens, and per-model totals. Pure.

export interface UsageRow {
  day: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  answers: number;
}

export interface UsageColumn {
  day: string;
  total: number;
  segments: { model: string; tokens: number }[];
}

export interface UsageSeries {
  models: string[];
  columns: UsageColumn[];
  /** The tallest column (at least 1, so an empty chart scales). */
  max: number;
  totals: Omit<UsageRow, "day">[];
}

const DAY = 24 * 60 * 60 * 1000;

/** The `count` UTC days ending with `now`'s, oldest first, as YYYY-MM-DD. */
export function lastDays(count: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * DAY).toISOString().slice(0, 10),
  );
}

export function usageSeries(rows: UsageRow[], days: string[]): UsageSeries {
  const totals = new Map<string, Omit<UsageRow, "day">>();
  for (const r of rows) {
    const t = totals.get(r.model) ?? { model: r.model, promptTokens: 0, completionTokens: 0, answers: 0 };
    t.promptTokens += r.promptTokens;
    t.completionTokens += r.completionTokens;
    t.answers += r.answers;
    totals.set(r.model, t);
  }
  const byTotal = [...totals.values()].sort(
    (a, b) =>
      b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens) ||
      a.model.localeCompare(b.model),
  );
  const models = byTotal.map((t) => t.model);
  const columns = days.map((day) => {
    const segments = models
      .map((model) => {
        const r = rows.find((x) => x.day === day && x.model === model);
        return { model, tokens: r ? r.promptTokens + r.completionTokens : 0 };
      })
      .filter((s) => s.tokens > 0);
    return { day, segments, total: segments.reduce((n, s) => n + s.tokens, 0) };
  });
  return { models, columns, max: Math.max(1, ...columns.map((c) => c.total)), totals: byTotal };
}
