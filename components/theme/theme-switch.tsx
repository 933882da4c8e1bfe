"use client";

import { useEffect, useState } from "react";
import { useT } from "@/lib/i18n/client";
import { parseTheme, THEME_COOKIE, THEME_STORAGE_KEY, THEMES, type Theme } from "./theme";

function applyTheme(theme: Theme) {
  const root = document.documentElement;
  for (const t of THEMES) root.classList.toggle(t, t === theme);
  // biome-ignore lint/suspicious/noDocumentCookie: a plain preference cookie the server reads on the next render
  document.cookie = `${THEME_COOKIE}=${theme}; path=/; max-age=31536000; samesite=lax`;
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage disabled: the cookie still remembers it
  }
}

function currentTheme(): Theme {
  const root = document.documentElement;
  return THEMES.find((t) => root.classList.contains(t)) ?? "system";
}

/** Light / Dark / System, as a radio group; the server rendered the current one from the cookie. */
export function ThemeSwitch({ className = "" }: { className?: string }) {
  const t = useT("common");
  const [theme, setTheme] = useState<Theme | null>(null);

  useEffect(() => {
    // A cookie lost (cleared, expired) while localStorage kept the choice: bring it back.
    let stored: Theme | null = null;
    try {
      const raw = window.localStorage.getItem(THEME_STORAGE_KEY);
      stored = raw ? parseTheme(raw) : null;
    } catch {
      stored = null;
    }
    const hasCookie = document.cookie.split("; ").some((c) => c.startsWith(`${THEME_COOKIE}=`));
    if (stored && !hasCookie && stored !== currentTheme()) applyTheme(stored);
    setTheme(currentTheme());
  }, []);

  return (
    <fieldset className={`flex items-center gap-1 text-xs ${className}`} data-testid="theme-switch">
      <legend className="sr-only">{t("theme.label")}</legend>
      {THEMES.map((choice) => (
        <label
          key={choice}
          className="cursor-pointer rounded-md border border-zinc-300 px-2 py-1 text-zinc-700 has-[:checked]:border-zinc-900 has-[:checked]:bg-zinc-900 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-zinc-900"
        >
          <input
            type="radio"
            name="theme"
            value={choice}
            className="sr-only"
            checked={theme === choice}
            onChange={() => {
              applyTheme(choice);
              setTheme(choice);
            }}
            data-testid={`theme-${choice}`}
          />
          {t(`theme.${choice}`)}
        </label>
      ))}
    </fieldset>
  );
}
