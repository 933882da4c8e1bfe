/** 7950 → "7 950": digits grouped by three with a no-break space, the same in every locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u00a0");
}
