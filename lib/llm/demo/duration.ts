// How long a stated fact stays true, read from its wording: the demo model's way of setting `days` on remember.

const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  few: 3,
  couple: 2,
};
const ZH_NUMBERS: Record<string, number> = {
  一: 1,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};
const ZH_UNIT_DAYS: Record<string, number> = { 天: 1, 周: 7, 星期: 7, 个星期: 7, 个月: 30, 月: 30, 年: 365 };

/**
 * A duration the wording bounds a fact to — "for the next two weeks", "for 3 days", "接下来两周" —
 * in days, or null when it names none.
 */
export function durationDaysOf(text: string): number | null {
  const en =
    /\bfor\s+(?:the\s+)?(?:next\s+)?(\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|few|couple)\s+(?:of\s+)?(day|week|month|year)s?\b/i.exec(
      text,
    );
  if (en?.[1] && en[2]) {
    const n = /^\d+$/.test(en[1]) ? Number(en[1]) : (NUMBERS[en[1].toLowerCase()] ?? 0);
    return n > 0 ? n * (UNIT_DAYS[en[2].toLowerCase()] ?? 0) : null;
  }
  const zh = /(?:接下来|未来|这)?(\d{1,3}|[一两二三四五六七八九十])(个星期|星期|个月|天|周|月|年)/.exec(text);
  if (zh?.[1] && zh[2] && /接下来|未来|之内|内/.test(text)) {
    const n = /^\d+$/.test(zh[1]) ? Number(zh[1]) : (ZH_NUMBERS[zh[1]] ?? 0);
    return n > 0 ? n * (ZH_UNIT_DAYS[zh[2]] ?? 0) : null;
  }
  return null;
}
