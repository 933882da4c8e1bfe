"use client";

import { useRef } from "react";
import { HeaderPopover, headerPanelClass, useHeaderPopover } from "@/components/ui/header-popover";
import { useT } from "@/lib/i18n/client";

/** Downloads of this conversation (GET /api/sessions/:id/export): links, so the browser saves the file itself. */
export function ExportMenu({ sessionId }: { sessionId: string }) {
  const t = useT("data");
  const firstRef = useRef<HTMLAnchorElement>(null);
  const popover = useHeaderPopover({ haspopup: "true", focusOnOpen: firstRef });
  const { open, setOpen, panelProps } = popover;

  const base = `/api/sessions/${encodeURIComponent(sessionId)}/export`;
  const items = [
    { href: `${base}?format=md`, label: t("header.markdown"), testId: "export-markdown" },
    { href: `${base}?format=json`, label: t("header.json"), testId: "export-json" },
    { href: `${base}?format=json&all=1`, label: t("header.jsonAll"), testId: "export-json-all" },
  ];

  return (
    <HeaderPopover popover={popover} trigger={{ children: t("header.menu"), "data-testid": "export-menu" }}>
      {open && (
        <ul {...panelProps} className={`${headerPanelClass} w-56 py-1`}>
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
    </HeaderPopover>
  );
}
