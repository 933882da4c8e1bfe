"use client";

import { useEffect, useId, useRef, useState } from "react";
import { useT } from "@/lib/i18n/client";

/** Downloads of this conversation (GET /api/sessions/:id/export): links, so the browser saves the file itself. */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const t = useT("data");
  const id = useId();
  const [open, setOpen] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const firstRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (!open) return;
    firstRef.current?.focus();
    const outside = (e: PointerEvent) => {
      if (!wrapperRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const base = `/api/sessions/${encodeURIComponent(sessionId)}/export`;
  const items = [
    { href: `${base}?format=md`, label: t("header.markdown"), testId: "export-markdown" },
    { href: `${base}?format=json`, label: t("header.json"), testId: "export-json" },
    { href: `${base}?format=json&all=1`, label: t("header.jsonAll"), testId: "export-json-all" },
  ];

  return (
    <div className="relative" ref={wrapperRef}>
      <button
        ref={triggerRef}
        type="button"
        onClick={() => setOpen(!open)}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        className="rounded-md border border-zinc-200 px-2 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900"
        data-testid="export-menu"
      >
        {t("header.menu")}
      </button>
      {open && (
        <ul
          id={`${id}-menu`}
          className="absolute right-0 z-20 mt-2 max-sm:fixed max-sm:inset-x-2 max-sm:w-auto max-sm:max-w-none w-56 rounded-lg border border-zinc-200 bg-white py-1 text-sm shadow-lg"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              setOpen(false);
              triggerRef.current?.focus();
            }
          }}
        >
          {items.map((item, i) => (
            <li key={item.testId}>
              <a
                ref={i === 0 ? firstRef : undefined}
                href={item.href}
                download
                onClick={() => setOpen(false)}
                className="block px-3 py-2 text-zinc-800 hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none"
                data-testid={item.testId}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
