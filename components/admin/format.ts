// Formatting shared by server and client components: UTC and locale-free, so the server's HTML and the browser's
// render always agree.

/** 1234567 → "1,234,567" (fixed grouping, not the viewer's locale). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
