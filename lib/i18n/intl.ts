// Intl objects are costly to build; one per locale and options, shared by messages and the formatter.
const intlCache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.PluralRules>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.PluralRules>(
  kind: string,
  locale: Intl.LocalesArgument,
  options: object | undefined,
  make: () => T,
): T {
  const key = `${kind}|${String(locale)}|${JSON.stringify(options ?? {})}`;
  let hit = intlCache.get(key) as T | undefined;
  if (!hit) {
    hit = make();
    intlCache.set(key, hit);
  }
  return hit;
}

export const formatters = {
  getDateTimeFormat: (locale?: Intl.LocalesArgument, options?: Intl.DateTimeFormatOptions) =>
    cached("d", locale, options, () => new Intl.DateTimeFormat(locale, options)),
  getNumberFormat: (locale?: Intl.LocalesArgument, options?: Intl.NumberFormatOptions) =>
    cached("n", locale, options, () => new Intl.NumberFormat(locale, options)),
  getPluralRules: (locale?: Intl.LocalesArgument, options?: Intl.PluralRulesOptions) =>
    cached("p", locale, options, () => new Intl.PluralRules(locale, options)),
};
