"use client";

import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { HeaderPopover, headerPanelClass, useHeaderPopover } from "@/components/ui/header-popover";
import { useErrorText, useT } from "@/lib/i18n/client";
import { MemoryFields } from "./memory-fields";
import { MemoryNow } from "./memory-now";
import { describeMemory } from "./memory-words";
import { useMemory } from "./use-memory";
import { useMemoryEdit } from "./use-memory-edit";

/**
 * The conversation's memory in the chat header: one line saying what the model remembers, and a popover to turn
 * memory on or off, choose the policy and its numbers, and clear it. Changes apply from the next answer.
 */
export function MemoryControl({ sessionId, streaming }: { sessionId: string; streaming: boolean }) {
  const t = useT("chatMemory");
  const errorText = useErrorText();
  const { memory, error: loadError, update, clear } = useMemory(sessionId);
  const edit = useMemoryEdit(memory, update, clear);
  const { form, setForm, saving, confirming, setConfirming, clearing, error, status, save, confirmClear } =
    edit;
  const firstFieldRef = useRef<HTMLInputElement>(null);
  // The confirmation dialog is inside HeaderPopover: a click in it does not close the popover.
  const popover = useHeaderPopover({ haspopup: "dialog", focusOnOpen: firstFieldRef });
  const { id, open, setOpen, close, panelProps } = popover;

  function show() {
    if (!memory) return;
    edit.reset(memory);
    setOpen(true);
  }

  const summaryText = memory
    ? describeMemory(t, memory)
    : loadError
      ? t("control.unavailable")
      : t("control.loading");

  return (
    <HeaderPopover
      popover={popover}
      trigger={{
        onClick: () => (open ? close({ refocus: false }) : show()),
        disabled: !memory,
        title: loadError ? t("control.loadFailed", { reason: errorText(loadError) }) : undefined,
        className: "flex items-center gap-1.5 disabled:cursor-default",
        "data-testid": "memory-control",
        children: (
          <>
            <span aria-hidden="true" className="text-zinc-400">
              ◐
            </span>
            {memory && <span className="sr-only">{t("control.prefix")}</span>}
            <span data-testid="memory-summary-text">{summaryText}</span>
          </>
        ),
      }}
    >
      {open && memory && form && (
        <div
          {...panelProps}
          role="dialog"
          aria-labelledby={`${id}-title`}
          className={`${headerPanelClass} w-80 space-y-3 p-4`}
          data-testid="memory-popover"
        >
          <h2 id={`${id}-title`} className="font-semibold">
            {t("control.title")}
          </h2>
          <MemoryNow memory={memory} t={t} />

          <form onSubmit={save} noValidate className="space-y-3">
            <MemoryFields form={form} onChange={setForm} firstFieldRef={firstFieldRef} />

            {error && (
              <p role="alert" className="rounded bg-red-50 p-2 text-red-700" data-testid="memory-error">
                {error}
              </p>
            )}
            {status && (
              <p role="status" className="text-zinc-600" data-testid="memory-status">
                {status}
              </p>
            )}

            <div className="flex items-center justify-between gap-2 pt-1">
              <Button
                variant="secondary"
                onClick={() => setConfirming(true)}
                disabled={streaming || clearing}
                title={streaming ? t("control.waitForAnswer") : undefined}
                data-testid="memory-clear"
              >
                {t("control.clear")}
              </Button>
              <Button type="submit" aria-disabled={saving} data-testid="memory-save">
                {saving ? t("control.saving") : t("control.save")}
              </Button>
            </div>
          </form>
        </div>
      )}

      <ConfirmDialog
        open={confirming}
        title={t("control.confirmTitle")}
        confirmLabel={t("control.confirmLabel")}
        pending={clearing}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void confirmClear()}
        body={
          <div className="space-y-2">
            <p>{t("control.confirmForget")}</p>
            <p>{t("control.confirmHistory")}</p>
            <p className="font-medium text-zinc-900">{t("control.cannotUndo")}</p>
          </div>
        }
      />
    </HeaderPopover>
  );
}
