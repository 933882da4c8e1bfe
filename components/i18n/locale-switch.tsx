"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useLocale, useT } from "@/lib/i18n/client";
import { LOCALE_COOKIE, LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/config";

/** English / 简体中文, as a radio group; the choice is a cookie the server reads, then the page re-renders. */
export function LocaleSwitch({ className = "" }: { className?: string }) {
  const t = useT("common");
  const locale = useLocale();
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function choose(next: Locale) {
    // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie the server reads on the next render
    document.cookie = `${LOCALE_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
    startTransition(() => router.refresh());
  }

  return (
    <fieldset
      className={`flex items-center gap-1 text-xs ${className}`}
      data-testid="locale-switch"
      aria-busy={pending}
    >
      <legend className="sr-only">{t("language")}</legend>
      {LOCALES.map((l) => (
        <label
          key={l}
          lang={l}
          className="cursor-pointer rounded-md border border-zinc-300 px-2 py-1 text-zinc-700 has-[:checked]:border-zinc-900 has-[:checked]:bg-zinc-900 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-zinc-900"
        >
          <input
            type="radio"
            name="locale"
            value={l}
            className="sr-only"
            checked={locale === l}
            onChange={() => choose(l)}
            data-testid={`locale-${l}`}
          />
          {LOCALE_NAMES[l]}
        </label>
      ))}
    </fieldset>
  );
}
