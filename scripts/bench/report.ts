import { round } from "./stats";

// Plain-text tables for the terminal (and for pasting into a decision record or an issue).

export type Cell = string | number | null | undefined;

export function fmtMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return `${round(ms)} ms`;
}

export function fmtSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString("en-US").replace(/,/g, " ");
}

function text(cell: Cell): string {
  if (cell === null || cell === undefined) return "";
  return typeof cell === "number" ? String(round(cell)) : cell;
}

/** A table with a header row; numbers and "… ms" cells are right-aligned. */
export function table(header: Cell[], rows: Cell[][], indent = "  "): string {
  const all = [header, ...rows].map((r) => r.map(text));
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const numeric = header.map((_, i) =>
    rows.every((r) => {
      const t = text(r[i]);
      return t === "" || t === "—" || /^[\d\s.,×x≤≥<>%+-]+( ms| s|\/s)?$/.test(t);
    }),
  );
  const line = (r: string[]) =>
    indent +
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = indent + widths.map((w) => "─".repeat(w)).join("  ");
  return [line(all[0] ?? []), rule, ...all.slice(1).map(line)].join("\n");
}

export interface Target {
  id: string;
  label: string;
  value: number;
  display: string;
  target: string;
  pass: boolean;
}

export const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");
