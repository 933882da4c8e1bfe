// bench:recall's questions asked about the other speaker (--speaker assistant: "you") or a third person (--person
// third: a name), rewritten from their first person. Rough grammar is fine: the ranking reads content words.

/** Rewrites of a question's first person, in order (English words, then Chinese). */
const rewrite = (rules: [RegExp, string][]) => (text: string) =>
  rules.reduce(
    (t, [re, to]) =>
      t.replace(re, (m) =>
        /^[A-Z]/.test(m) && !/^I\b/.test(m) ? to.charAt(0).toUpperCase() + to.slice(1) : to,
      ),
    text,
  );
export const secondPerson = rewrite([
  [/\bam I\b/g, "are you"],
  [/\bI am\b/g, "you are"],
  [/\bwas I\b/g, "were you"],
  [/\bI was\b/g, "you were"],
  [/\bI'(m|ve|d|ll)\b/g, "you'$1"],
  [/\bI\b/g, "you"],
  [/\b(me|we|us)\b/gi, "you"],
  [/\b(my|our)\b/gi, "your"],
  [/\bmine\b/gi, "yours"],
  [/\bmyself\b/gi, "yourself"],
  [/我们/g, "你们"],
  [/我/g, "你"],
]);
export const thirdPerson = rewrite([
  [/\bam I\b/g, "is Sam"],
  [/\bI am\b/g, "Sam is"],
  [/\bwas I\b/g, "was Sam"],
  [/\bdo I\b/g, "does Sam"],
  [/\bhave I\b/g, "has Sam"],
  [/\bI'm\b/g, "Sam is"],
  [/\bI've\b/g, "Sam has"],
  [/\bI\b/g, "Sam"],
  [/\b(me|we|us)\b/gi, "Sam"],
  [/\b(my|our|mine)\b/gi, "Sam's"],
  [/\bmyself\b/gi, "Sam"],
  [/我们/g, "小林"],
  [/我/g, "小林"],
]);

/** The names `--person third` gives the speakers: the one asked about, and the other. */
const NAMES = {
  en: { asked: "Sam", other: "Alex" },
  zh: { asked: "小林", other: "老陈" },
} as const;

/**
 * A conversation of two people as `--person third` imports it: each speaker now and then addresses the other by
 * name ("Sam, …" / "… Thanks, Alex!"; 小林，…), as people in a chat do — so a question's name is in the conversation,
 * mostly in the other speaker's messages, and seldom in the evidence. Every fifth message of a speaker in turn,
 * by its seq: deterministic.
 */
export function addressedByName<M extends { seq: number; role: "user" | "assistant"; text: string }>(
  messages: M[],
  asked: "user" | "assistant",
  lang: "en" | "zh",
): M[] {
  const names = NAMES[lang];
  return messages.map((m) => {
    const step = Math.floor((m.seq - 1) / 2);
    if (step % 5 !== (m.role === asked ? 1 : 3)) return m;
    const name = m.role === asked ? names.other : names.asked;
    if (lang === "zh") return { ...m, text: `${name}，${m.text}` };
    const text =
      step % 10 < 5
        ? `${name}, ${/^[A-Z][a-z]/.test(m.text) ? m.text.charAt(0).toLowerCase() + m.text.slice(1) : m.text}`
        : `${m.text.replace(/\s+$/, "")} Thanks, ${name}!`;
    return { ...m, text };
  });
}

/** Every message opened by its speaker's name as a label ("Sam: …", 小林：…), as an import of two people's chat may write it. */
export function labelledByName<M extends { role: "user" | "assistant"; text: string }>(
  messages: M[],
  asked: "user" | "assistant",
  lang: "en" | "zh",
): M[] {
  const names = NAMES[lang];
  return messages.map((m) => {
    const name = m.role === asked ? names.asked : names.other;
    return { ...m, text: lang === "zh" ? `${name}：${m.text}` : `${name}: ${m.text}` };
  });
}
