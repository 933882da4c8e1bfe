// For tests: a locale's real messages, translators, and a wrapper that renders a client component inside the
// provider (as the root layout does).
import { createElement, type ReactNode } from "react";
import { I18nProvider } from "./client";
import { compileMessages } from "./compile";
import type { Locale } from "./config";
import { loadMessages, type Namespace } from "./messages";
import { createTranslator, type Translator } from "./translate";

export async function i18nFor(locale: Locale) {
  const messages = compileMessages(await loadMessages(locale));
  return {
    messages,
    t: <N extends Namespace>(ns: N): Translator<N> => createTranslator(locale, messages, ns),
    wrap: (node: ReactNode) => createElement(I18nProvider, { locale, messages }, node),
  };
}
