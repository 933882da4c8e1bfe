"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/**
 * Below the md breakpoint the sidebar is a drawer: the menu button opens it, choosing a conversation (any
 * navigation), Escape or the backdrop closes it, and focus goes back to the menu button.
 */
export function useDrawer() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) menuButton.current?.focus();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation (the path changed) closes the drawer
  useEffect(() => {
    setOpen(false);
  }, [pathname]);
  useEffect(() => {
    if (!open) return;
    drawer.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !document.querySelector("dialog[open]")) {
        setOpen(false);
        menuButton.current?.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  return { open, setOpen, close, menuButton, drawer };
}
