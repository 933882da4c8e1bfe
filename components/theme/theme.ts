// The colour theme: "system" follows the device. Kept in a cookie (so the server renders <html> with the right
// class and the first paint is already right) and mirrored in localStorage.

export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

export const THEME_COOKIE = "recall-theme";
export const THEME_STORAGE_KEY = "recall:theme";

export function parseTheme(value: string | undefined | null): Theme {
  return THEMES.includes(value as Theme) ? (value as Theme) : "system";
}
