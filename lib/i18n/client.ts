"use client";

// Browser side of i18n: the root layout wraps the app in <I18nProvider> with the active locale's compiled
// messages (only that locale is shipped). `const t = useT("common")`.
import { createContext, createElement, type ReactNode, useContext, useMemo } from "react";
import { DEFAULT_LOCALE, type Locale } from "./config";
import { createFormat, type Format } from "./format";
import type { Namespace } from "./messages";
import { type CompiledMessages, createTranslator, type Translator } from "./translate";

interface I18n {
  locale: Locale;
  messages: CompiledMessages;
}

const I18nContext = createContext<I18n>({ locale: DEFAULT_LOCALE, messages: {} });

export function I18nProvider({
  locale,
  messages,
  children,
}: {
  locale: Locale;
  messages: CompiledMessages;
  children?: ReactNode;
}) {
  const value = useMemo(() => ({ locale, messages }), [locale, messages]);
  return createElement(I18nContext.Provider, { value }, children);
}

export function useLocale(): Locale {
  return useContext(I18nContext).locale;
}

export function useT<N extends Namespace>(ns: N): Translator<N> {
  const { locale, messages } = useContext(I18nContext);
  return useMemo(() => createTranslator(locale, messages, ns), [locale, messages, ns]);
}

export function useFormat(): Format {
  const locale = useLocale();
  return useMemo(() => createFormat(locale), [locale]);
}

/**
 * An error for people. A known error code (`{ code }` from the API, or "unreachable" when no answer came) becomes
 * a sentence in the reader's language; in English the server's own sentence is kept (it is more specific).
 * Otherwise the error's own message, else `fallback`.
 */
export function useErrorText(): (error: unknown, fallback?: string) => string {
  const t = useT("errors");
  const locale = useLocale();
  return useMemo(
    () => (error, fallback) => {
      const e = error as { code?: unknown; status?: unknown; message?: unknown } | null;
      const status = typeof e?.status === "number" ? e.status : null;
      const code =
        typeof e?.code === "string"
          ? e.code
          : status === 0
            ? "unreachable"
            : status !== null && status >= 500
              ? "internal_error"
              : null;
      const own = typeof e?.message === "string" && e.message ? e.message : null;
      const last = own ?? fallback ?? t("generic");
      if (!code || (locale === "en" && own)) return last;
      return t.dynamic(`codes.${code}`, last);
    },
    [t, locale],
  );
}
