"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { createShare } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/** The header's Share action: makes a read-only link to this branch as it is now, shown with Copy. */
export function ShareButton({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const t = useT("share");
  const errorText = useErrorText();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const wrapperRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (e: PointerEvent) => {
      if (!wrapperRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  useEffect(() => {
    if (open && url) inputRef.current?.select();
  }, [open, url]);

  async function share() {
    setBusy(true);
    setFailure(null);
    setCopied(false);
    try {
      setUrl((await createShare(sessionId)).url);
      setOpen(true);
    } catch (e) {
      setFailure(t("header.failed", { message: errorText(e) }));
      setOpen(true);
    } finally {
      setBusy(false);
    }
  }

  function close() {
    setOpen(false);
    triggerRef.current?.focus();
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      inputRef.current?.select();
    }
  }

  return (
    <div className="relative" ref={wrapperRef}>
      <button
        ref={triggerRef}
        type="button"
        onClick={() => void share()}
        disabled={disabled || busy}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? `${id}-share` : undefined}
        className="rounded-md border border-zinc-200 px-2 py-1 text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:opacity-50"
        data-testid="share-button"
      >
        {busy ? t("header.sharing") : t("header.share")}
      </button>
      {open && (
        <div
          id={`${id}-share`}
          role="dialog"
          aria-label={t("header.title")}
          className="absolute right-0 z-20 mt-2 max-sm:fixed max-sm:inset-x-2 max-sm:w-auto max-sm:max-w-none w-[min(20rem,calc(100vw-2rem))] space-y-2 rounded-lg border border-zinc-200 bg-white p-3 text-sm shadow-lg"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              close();
            }
          }}
        >
          <p className="font-medium text-zinc-900">{t("header.title")}</p>
          {failure ? (
            <p className="text-red-700" role="alert" data-testid="share-error">
              {failure}
            </p>
          ) : (
            <>
              <p className="text-zinc-600">{t("header.body")}</p>
              <label className="block">
                <span className="sr-only">{t("header.linkLabel")}</span>
                <input
                  ref={inputRef}
                  readOnly
                  value={url ?? ""}
                  className="w-full rounded border border-zinc-300 px-2 py-1 font-mono text-xs text-zinc-900"
                  data-testid="share-url"
                />
              </label>
            </>
          )}
          <div className="flex flex-wrap items-center gap-2">
            {url && !failure && (
              <button
                type="button"
                onClick={() => void copy()}
                className="rounded-md bg-zinc-900 px-2 py-1 text-white hover:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-zinc-900"
                data-testid="share-copy"
              >
                {copied ? t("header.copied") : t("header.copy")}
              </button>
            )}
            <Link href="/settings/shared" className="text-zinc-700 underline">
              {t("header.manage")}
            </Link>
            <button type="button" onClick={close} className="ml-auto text-zinc-700 underline">
              {t("header.close")}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
