import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { MAIN_URL } from "./config";

// Accessibility checks shared by the specs.

/** axe finds nothing of WCAG 2.1 A and AA on the page as it is now (each violation named with its elements). */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, `axe on ${page.url()}`).toEqual([]);
}

/** Runs `check` with the page reloaded in the light theme, then in the dark one (the cookie of `url`'s server). */
export async function forEachTheme(page: Page, check: () => Promise<void>, url = MAIN_URL) {
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "recall-theme", value: theme, url }]);
    await page.reload();
    await check();
  }
}
