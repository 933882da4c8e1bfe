// The languages Recall speaks and how one is chosen: the user's choice (a cookie set from the user menu), else the
// browser's Accept-Language (any Chinese → Simplified Chinese, anything else → English). Pure: used on both sides.

export const LOCALES = ["en", "zh-CN"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "recall-locale";

/** The language's own name, for the switch. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", "zh-CN": "简体中文" };

function parseLocale(value: string | undefined | null): Locale | null {
  return LOCALES.includes(value as Locale) ? (value as Locale) : null;
}

/** "zh-TW,zh;q=0.9,en;q=0.8" → "zh-CN"; "fr-FR,en;q=0.5" → "en"; the highest-ranked language we speak wins. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((l) => l.tag && l.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    if (tag === "zh" || tag.startsWith("zh-")) return "zh-CN";
    if (tag === "en" || tag.startsWith("en-")) return "en";
  }
  return DEFAULT_LOCALE;
}

/** What the server renders: a valid cookie wins, else the browser's languages. */
export function resolveLocale(
  cookie: string | undefined | null,
  acceptLanguage: string | null | undefined,
): Locale {
  return parseLocale(cookie) ?? negotiateLocale(acceptLanguage);
}
