"use client";

import Link from "next/link";
import { useState } from "react";
import useSWR from "swr";
import { InstructionField } from "@/components/instructions/instruction-field";
import { Button } from "@/components/ui/button";
import { HeaderPopover, headerPanelClass, useHeaderPopover } from "@/components/ui/header-popover";
import { getSystemPrompt, saveSystemPrompt } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/**
 * The conversation's own system prompt in the chat header (PATCH /api/sessions/:id { systemPrompt }): a popover
 * with the text, Save and Clear. It applies from the next answer.
 */
export function SystemPromptMenu({ sessionId }: { sessionId: string }) {
  const t = useT("instructions");
  const errorText = useErrorText();
  const popover = useHeaderPopover({ haspopup: "true" });
  const { id, open, panelProps } = popover;
  const [draft, setDraft] = useState<string | null>(null);
  const [status, setStatus] = useState<{ kind: "saved" | "cleared" | "error"; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const { data, mutate } = useSWR(
    open ? ["system-prompt", sessionId] : null,
    () => getSystemPrompt(sessionId),
    {
      revalidateOnFocus: false,
    },
  );
  const text = draft ?? data ?? "";

  async function save(value: string | null) {
    // Not disabled while saving (that would drop the focus, and Escape with it): a second click waits.
    if (saving) return;
    setSaving(true);
    setStatus(null);
    try {
      const stored = await saveSystemPrompt(sessionId, value);
      await mutate(stored, { revalidate: false });
      setDraft(null);
      setStatus(stored ? { kind: "saved", text: t("saved") } : { kind: "cleared", text: t("cleared") });
    } catch (e) {
      setStatus({ kind: "error", text: t("failed", { reason: errorText(e) }) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <HeaderPopover
      popover={popover}
      trigger={{
        "aria-label": t("menu"),
        title: t("menu"),
        "data-testid": "system-prompt-menu",
        // On a phone the header has no room for the words: a sign, named by aria-label.
        children: (
          <>
            <span aria-hidden="true" className="sm:hidden">
              ✎
            </span>
            <span aria-hidden="true" className="hidden sm:inline">
              {t("menu")}
            </span>
          </>
        ),
      }}
    >
      {open && (
        <section
          {...panelProps}
          aria-label={t("menuTitle")}
          className={`${headerPanelClass} w-80 max-w-[calc(100vw-2rem)] p-3`}
          data-testid="system-prompt-panel"
        >
          <InstructionField
            id={`${id}-text`}
            label={t("menuLabel")}
            hint={t("menuHint")}
            value={data === undefined ? "" : text}
            onChange={(value) => {
              setStatus(null);
              setDraft(value);
            }}
            testId="system-prompt-input"
          />
          <div className="mt-2 flex items-center gap-2">
            <Button onClick={() => save(text)} aria-busy={saving} data-testid="system-prompt-save">
              {saving ? t("saving") : t("save")}
            </Button>
            <Button variant="secondary" onClick={() => save(null)} data-testid="system-prompt-clear">
              {t("clear")}
            </Button>
          </div>
          {status && (
            <p
              role={status.kind === "error" ? "alert" : "status"}
              className={`mt-2 text-xs ${status.kind === "error" ? "text-red-700" : "text-emerald-800"}`}
              data-testid="system-prompt-status"
            >
              {status.text}
            </p>
          )}
          <Link href="/settings/instructions" className="mt-2 block text-xs text-zinc-600 underline">
            {t("settingsLink")}
          </Link>
        </section>
      )}
    </HeaderPopover>
  );
}
