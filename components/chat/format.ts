import type { Translator } from "@/lib/i18n/translate";

/** 7950 → "7 950": digits grouped by three with a no-break space, the same in every locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
}

/** A context entry's role in the reader's language ("assistant" → "助手"); a role it does not know, as it is. */
export const roleWord = (t: Translator<"chat">, role: string) => t.dynamic(`context.role.${role}`, role);
