/** The tab's title as the root layout's template writes it ("%s · Recall"), for changes made without a navigation. */
export function setTabTitle(title: string) {
  document.title = `${title} · Recall`;
}
