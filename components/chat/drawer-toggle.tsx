"use client";

import { useT } from "@/lib/i18n/client";
import type { useDrawer } from "./use-drawer";

/** Below the md breakpoint: the bar with the menu button that opens the sidebar, and the backdrop that closes it. */
export function DrawerToggle({ drawer }: { drawer: ReturnType<typeof useDrawer> }) {
  const t = useT("sidebar");
  return (
    <>
      <div className="flex items-center gap-2 border-b border-zinc-200 bg-white px-3 py-2 md:hidden">
        <button
          ref={drawer.menuButton}
          type="button"
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
          aria-expanded={drawer.open}
          aria-controls="sidebar"
          onClick={() => drawer.setOpen(true)}
          data-testid="menu-button"
        >
          <span aria-hidden="true">☰</span> {t("menu")}
        </button>
        <span className="font-semibold">Recall</span>
      </div>
      {drawer.open && (
        <button
          type="button"
          tabIndex={-1}
          aria-label={t("closeMenu")}
          className="fixed inset-0 z-30 bg-black/40 md:hidden"
          onClick={() => drawer.close(true)}
          data-testid="drawer-backdrop"
        />
      )}
    </>
  );
}
