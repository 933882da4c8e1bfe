// Dates and numbers in the reader's language, on the server and in the browser alike. Dates are shown in UTC (and
// say so): the server cannot know the browser's time zone, and the server's HTML must match the browser's render.
import type { Locale } from "./config";
import { formatters } from "./intl";

const dateTimeOptions: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
  timeZoneName: "short",
};

export interface Format {
  /** "Nov 30, 2026, 08:18 UTC" · "2026年11月30日 UTC 08:18" */
  dateTime(value: string | Date): string;
  /** Same with seconds. */
  dateTimeSeconds(value: string | Date): string;
  /** "Nov 30, 2026" · "2026年11月30日" */
  date(value: string | Date): string;
  /** 1234567 → "1,234,567" */
  number(n: number, options?: Intl.NumberFormatOptions): string;
}

function toDate(value: string | Date): Date | null {
  const d = typeof value === "string" ? new Date(value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

export function createFormat(locale: Locale): Format {
  const withDate = (options: Intl.DateTimeFormatOptions) => (value: string | Date) => {
    const d = toDate(value);
    return d ? formatters.getDateTimeFormat(locale, options).format(d) : String(value);
  };
  return {
    dateTime: withDate(dateTimeOptions),
    dateTimeSeconds: withDate({ ...dateTimeOptions, second: "2-digit" }),
    date: withDate({ year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }),
    number: (n, options) => formatters.getNumberFormat(locale, options).format(n),
  };
}
