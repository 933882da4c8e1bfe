"use client";

import { useEffect, useId, useRef, useState } from "react";
import { ShareButton } from "@/components/share/share-button";
import { TemporaryChatToggle } from "@/components/share/temporary-chat";
import type { ModelInfo } from "@/lib/client/types";
import { useFormat, useT } from "@/lib/i18n/client";
import { ExportMenu } from "./export-menu";
import { MemoryControl } from "./memory-control";
import { ModelPicker } from "./model-picker";
import { SystemPromptMenu } from "./system-prompt-menu";
import { ToolsMenu } from "./tools-menu";

export function ChatHeader({
  modelInfo,
  sessionId,
  importedAt = null,
  streaming,
}: {
  modelInfo: ModelInfo;
  /** The conversation, once it exists: its memory control and export menu are shown from then on. */
  sessionId: string | null;
  /** When an import made the conversation (null: started here). */
  importedAt?: string | null;
  streaming: boolean;
}) {
  const t = useT("chat");
  const format = useFormat();
  const id = useId();
  // On a phone the secondary controls sit behind "⋯", so the header stays one line; from sm up they are all shown.
  const [more, setMore] = useState(false);
  const moreRef = useRef<HTMLButtonElement>(null);
  const rowRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (!more) return;
    const outside = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!rowRef.current?.contains(target) && !moreRef.current?.contains(target)) setMore(false);
    };
    // Escape closes the row (a popover inside it closes itself first: it stops the key there).
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setMore(false);
      moreRef.current?.focus();
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("keydown", onEscape);
    return () => {
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("keydown", onEscape);
    };
  }, [more]);

  return (
    <header className="relative flex items-center justify-between gap-2 border-b border-zinc-200 bg-white px-4 py-2 text-sm">
      <span className="min-w-0 truncate text-zinc-500" data-testid="header-model">
        <span className="max-sm:sr-only">{t("header.model")} </span>
        <span className="font-medium text-zinc-800">{modelInfo.model}</span>
        {modelInfo.offline && (
          <span
            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800"
            data-testid="offline-badge"
            title={t("header.offlineTitle")}
          >
            {t("header.offline")}
          </span>
        )}
        {sessionId && importedAt && (
          <span
            className="ml-2 rounded-full bg-sky-50 px-2 py-0.5 text-xs font-medium text-sky-900"
            data-testid="imported-badge"
            title={t("header.importedTitle", { date: format.dateTime(importedAt) })}
          >
            {t("header.imported")}
          </span>
        )}
      </span>
      {!sessionId && <TemporaryChatToggle />}
      {sessionId && (
        <span className="flex shrink-0 items-center gap-2">
          <ModelPicker key={`model-${sessionId}`} sessionId={sessionId} defaultModel={modelInfo.model} />
          <button
            ref={moreRef}
            type="button"
            onClick={() => setMore(!more)}
            aria-expanded={more}
            aria-controls={`${id}-more`}
            aria-label={t("header.more")}
            title={t("header.more")}
            className="rounded-md border border-zinc-200 px-2 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900 sm:hidden"
            data-testid="header-more"
          >
            <span aria-hidden="true">⋯</span>
          </button>
          <span
            ref={rowRef}
            id={`${id}-more`}
            className={`${more ? "" : "max-sm:hidden"} flex flex-wrap items-center justify-end gap-2 max-sm:absolute max-sm:inset-x-0 max-sm:top-full max-sm:z-10 max-sm:border-b max-sm:border-zinc-200 max-sm:bg-white max-sm:px-4 max-sm:py-2`}
            data-testid="header-secondary"
          >
            <ShareButton key={`share-${sessionId}`} sessionId={sessionId} disabled={streaming} />
            <MemoryControl key={sessionId} sessionId={sessionId} streaming={streaming} />
            <ToolsMenu key={`tools-${sessionId}`} sessionId={sessionId} />
            <SystemPromptMenu key={`prompt-${sessionId}`} sessionId={sessionId} />
            <ExportMenu key={`export-${sessionId}`} sessionId={sessionId} />
          </span>
        </span>
      )}
    </header>
  );
}
