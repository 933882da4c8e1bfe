"use client";

import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { MemoryChange, MemoryPolicyKind, MemoryStateView } from "@/lib/client/types";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { Translator } from "@/lib/i18n/translate";
import { formatCount } from "./format";
import { describeMemory, describeSummary } from "./memory-words";
import { useMemory } from "./use-memory";

const POLICY_LABELS = {
  window: "control.policyWindow",
  tokens: "control.policyTokens",
  summary: "control.policySummary",
} as const satisfies Record<MemoryPolicyKind, string>;

const MESSAGES_LABELS = {
  window: "control.messagesWindow",
  tokens: "control.messagesTokens",
  summary: "control.messagesSummary",
} as const satisfies Record<MemoryPolicyKind, string>;

interface Form {
  enabled: boolean;
  policy: MemoryPolicyKind;
  maxMessages: string;
  maxTokens: string;
}

const formOf = (state: MemoryStateView): Form => ({
  enabled: state.enabled,
  policy: state.policy,
  maxMessages: String(state.maxMessages),
  maxTokens: String(state.maxTokens),
});

/** A typed number as the server should judge it: a number when it is one, else the text (the server says why). */
const numberOf = (text: string): number => (text.trim() === "" ? Number.NaN : Number(text));

/** The fields that differ from the stored settings; a field that is not a number is sent as null (a 422). */
function changeOf(form: Form, state: MemoryStateView): MemoryChange {
  const change: Record<string, unknown> = {};
  if (form.enabled !== state.enabled) change.enabled = form.enabled;
  if (form.policy !== state.policy) change.policy = form.policy;
  for (const field of ["maxMessages", "maxTokens"] as const) {
    const value = numberOf(form[field]);
    if (value !== state[field]) change[field] = Number.isFinite(value) ? value : null;
  }
  return change as MemoryChange;
}

/**
 * The conversation's memory in the chat header: one line saying what the model remembers, and a popover to turn
 * memory on or off, choose the policy and its numbers, and clear it. Changes apply from the next answer.
 */
export function MemoryControl({ sessionId, streaming }: { sessionId: string; streaming: boolean }) {
  const t = useT("chatMemory");
  const errorText = useErrorText();
  const { memory, error: loadError, update, clear } = useMemory(sessionId);
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Form | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const id = useId();

  function show() {
    if (!memory) return;
    setForm(formOf(memory));
    setError(null);
    setStatus(null);
    setOpen(true);
  }

  function hide({ refocus }: { refocus: boolean }) {
    setOpen(false);
    if (refocus) triggerRef.current?.focus();
  }

  useEffect(() => {
    if (open) firstFieldRef.current?.focus();
  }, [open]);

  // A click elsewhere closes the popover (the confirmation dialog is inside the wrapper, so it does not).
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!wrapperRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!memory || !form) return;
    const change = changeOf(form, memory);
    if (Object.keys(change).length === 0) {
      setStatus(t("control.nothingToChange"));
      return;
    }
    setSaving(true);
    setError(null);
    setStatus(null);
    try {
      await update(change);
      setStatus(t("control.saved"));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  }

  async function confirmClear() {
    setClearing(true);
    setError(null);
    setStatus(null);
    try {
      await clear();
      setStatus(t("control.cleared"));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setClearing(false);
      setConfirming(false);
    }
  }

  const summaryText = memory
    ? describeMemory(t, memory)
    : loadError
      ? t("control.unavailable")
      : t("control.loading");

  return (
    <div className="relative" ref={wrapperRef}>
      <button
        ref={triggerRef}
        type="button"
        onClick={() => (open ? hide({ refocus: false }) : show())}
        disabled={!memory}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${id}-panel` : undefined}
        title={loadError ? t("control.loadFailed", { reason: errorText(loadError) }) : undefined}
        className="flex items-center gap-1.5 rounded-md border border-zinc-200 px-2 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-default"
        data-testid="memory-control"
      >
        <span aria-hidden="true" className="text-zinc-400">
          ◐
        </span>
        {memory && <span className="sr-only">{t("control.prefix")}</span>}
        <span data-testid="memory-summary-text">{summaryText}</span>
      </button>

      {open && memory && form && (
        <div
          id={`${id}-panel`}
          role="dialog"
          aria-labelledby={`${id}-title`}
          className="absolute right-0 z-20 mt-2 w-80 space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm shadow-lg"
          data-testid="memory-popover"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              hide({ refocus: true });
            }
          }}
        >
          <h2 id={`${id}-title`} className="font-semibold">
            {t("control.title")}
          </h2>
          <MemoryNow memory={memory} t={t} />

          <form onSubmit={save} noValidate className="space-y-3">
            <label className="flex items-center gap-2">
              <input
                ref={firstFieldRef}
                type="checkbox"
                checked={form.enabled}
                onChange={(e) => setForm({ ...form, enabled: e.target.checked })}
                data-testid="memory-enabled"
              />
              {t("control.enabled")}
            </label>

            <label className="block">
              <span className="text-zinc-700">{t("control.policyLabel")}</span>
              <select
                value={form.policy}
                disabled={!form.enabled}
                onChange={(e) => setForm({ ...form, policy: e.target.value as MemoryPolicyKind })}
                className="mt-1 block w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5"
                data-testid="memory-policy"
              >
                {(Object.keys(POLICY_LABELS) as MemoryPolicyKind[]).map((kind) => (
                  <option key={kind} value={kind}>
                    {t(POLICY_LABELS[kind])}
                  </option>
                ))}
              </select>
            </label>

            <label className="block">
              <span className="text-zinc-700">{t(MESSAGES_LABELS[form.policy])}</span>
              <input
                type="number"
                inputMode="numeric"
                min={1}
                value={form.maxMessages}
                disabled={!form.enabled}
                onChange={(e) => setForm({ ...form, maxMessages: e.target.value })}
                className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1.5"
                data-testid="memory-max-messages"
              />
            </label>

            {form.policy === "tokens" && (
              <label className="block">
                <span className="text-zinc-700">{t("control.tokenBudget")}</span>
                <input
                  type="number"
                  inputMode="numeric"
                  min={100}
                  value={form.maxTokens}
                  disabled={!form.enabled}
                  onChange={(e) => setForm({ ...form, maxTokens: e.target.value })}
                  className="mt-1 block w-full rounded-md border border-zinc-300 px-2 py-1.5"
                  data-testid="memory-max-tokens"
                />
              </label>
            )}

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
              <Button type="submit" disabled={saving} data-testid="memory-save">
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
    </div>
  );
}

/** What memory holds right now: the messages in it, their tokens, the summary, the clear boundary. */
function MemoryNow({ memory, t }: { memory: MemoryStateView; t: Translator<"chatMemory"> }) {
  const { inMemory, summary } = memory;
  const range =
    inMemory.fromSeq === null
      ? null
      : inMemory.fromSeq === inMemory.throughSeq
        ? `#${inMemory.fromSeq}`
        : `#${inMemory.fromSeq}–#${inMemory.throughSeq}`;
  return (
    <dl
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600"
      data-testid="memory-now"
    >
      <dt>{t("now.inMemory")}</dt>
      <dd>
        {inMemory.count === 0
          ? t("now.none")
          : t("now.held", {
              range: range ?? "",
              messages: t("messages", { n: inMemory.count, count: formatCount(inMemory.count) }),
            })}{" "}
        · {t("now.tokens", { count: formatCount(inMemory.tokens) })}
      </dd>
      {summary && (
        <>
          <dt>{t("now.summary")}</dt>
          <dd data-testid="memory-summary">{describeSummary(t, summary)}</dd>
        </>
      )}
      {memory.clearedThroughSeq > 0 && (
        <>
          <dt>{t("now.cleared")}</dt>
          <dd>{t("now.clearedAfter", { seq: memory.clearedThroughSeq })}</dd>
        </>
      )}
      {!memory.custom && (
        <>
          <dt>{t("now.settings")}</dt>
          <dd>{t("now.defaults")}</dd>
        </>
      )}
    </dl>
  );
}
