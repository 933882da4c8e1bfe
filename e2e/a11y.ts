import { expect, type Page } from "@playwright/test";
import axe from "axe-core";
import { MAIN_URL } from "./config";

// Accessibility checks shared by the specs. axe-core runs in the page itself, injected once per document: the
// @axe-core/playwright wrapper injected it anew on every check and finished each run in a blank page of its own,
// ~1.5 s a check here against ~0.3 s (docs/decisions/040-test-suite-speed.md). Our pages have no frames, which is
// all that wrapper adds.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** The WCAG 2.1 A and AA violations axe finds on the page as it is now, each with its elements. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  return page.evaluate(async (tags) => {
    // Colours measured mid-transition (a theme just switched, a hover fading out) are neither theme's: let every
    // finite transition and animation end first. Endless ones (a streaming caret) keep their colours.
    const finite = document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const results = await inPage.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return results.violations.map(
      (v) => `${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
    );
  }, TAGS);
}

/** axe finds nothing of WCAG 2.1 A and AA on the page as it is now (each violation named with its elements). */
export async function expectNoAxeViolations(page: Page, label = `axe on ${page.url()}`) {
  expect(await axeViolations(page), label).toEqual([]);
}

/** Runs `check` with the page reloaded in the light theme, then in the dark one (the cookie of `url`'s server). */
export async function forEachTheme(page: Page, check: () => Promise<void>, url = MAIN_URL) {
  for (const theme of ["light", "dark"]) {
    await page.context().addCookies([{ name: "recall-theme", value: theme, url }]);
    await page.reload();
    await check();
  }
}
