"use client";

import { useEffect, useId, useRef, useState } from "react";
import { ShareButton } from "@/components/share/share-button";
import { TemporaryChatToggle } from "@/components/share/temporary-chat";
import type { ModelInfo } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";
import { MemoryControl } from "./memory-control";
import { ModelPicker } from "./model-picker";
import { SystemPromptMenu } from "./system-prompt-menu";
import { ToolsMenu } from "./tools-menu";

export function ChatHeader({
  modelInfo,
  sessionId,
  streaming,
}: {
  modelInfo: ModelInfo;
  /** The conversation, once it exists: its memory control and export menu are shown from then on. */
  sessionId: string | null;
  streaming: boolean;
}) {
  const t = useT("chat");
  return (
    <header className="flex items-center justify-between gap-3 border-b border-zinc-200 bg-white px-4 py-2 text-sm">
      <span className="text-zinc-500">
        {t("header.model")} <span className="font-medium text-zinc-800">{modelInfo.model}</span>
        {modelInfo.offline && (
          <span
            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800"
            data-testid="offline-badge"
            title={t("header.offlineTitle")}
          >
            {t("header.offline")}
          </span>
        )}
      </span>
      {!sessionId && <TemporaryChatToggle />}
      {sessionId && (
        <span className="flex flex-wrap items-center justify-end gap-2">
          <ModelPicker key={`model-${sessionId}`} sessionId={sessionId} defaultModel={modelInfo.model} />
          <ShareButton key={`share-${sessionId}`} sessionId={sessionId} disabled={streaming} />
          <MemoryControl key={sessionId} sessionId={sessionId} streaming={streaming} />
          <ToolsMenu key={`tools-${sessionId}`} sessionId={sessionId} />
          <SystemPromptMenu key={`prompt-${sessionId}`} sessionId={sessionId} />
          <ExportMenu key={`export-${sessionId}`} sessionId={sessionId} />
        </span>
      )}
    </header>
  );
}

/** Downloads of this conversation (GET /api/sessions/:id/export): links, so the browser saves the file itself. */
function ExportMenu({ sessionId }: { sessionId: string }) {
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
