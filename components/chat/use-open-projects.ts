"use client";

import { useCallback, useSyncExternalStore } from "react";

// Which project groups of the sidebar are open, remembered in this browser (localStorage); closed by default.

const KEY = "recall.openProjects";
const listeners = new Set<() => void>();

function read(): string {
  try {
    return localStorage.getItem(KEY) ?? "[]";
  } catch {
    return "[]";
  }
}

function ids(raw: string): string[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** Opens or closes the group of `projectId` (and remembers it). */
export function setProjectOpen(projectId: string, open: boolean): void {
  const next = ids(read()).filter((id) => id !== projectId);
  if (open) next.push(projectId);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {}
  for (const l of listeners) l();
}

/** Whether the group of `projectId` is open, and a toggle. */
export function useProjectOpen(projectId: string): [boolean, () => void] {
  // The raw string is the snapshot (stable between reads); the server renders every group closed.
  const raw = useSyncExternalStore(subscribe, read, () => "[]");
  const open = ids(raw).includes(projectId);
  const toggle = useCallback(() => setProjectOpen(projectId, !open), [projectId, open]);
  return [open, toggle];
}
