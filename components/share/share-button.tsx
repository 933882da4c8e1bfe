"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { HeaderPopover, headerPanelClass, useHeaderPopover } from "@/components/ui/header-popover";
import { createShare } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/** The header's Share action: makes a read-only link to this branch as it is now, shown with Copy. */
export function ShareButton({ sessionId, disabled }: { sessionId: string; disabled: boolean }) {
  const t = useT("share");
  const errorText = useErrorText();
  const popover = useHeaderPopover({ haspopup: "dialog" });
  const { open, setOpen, close, panelProps } = popover;
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

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
    <HeaderPopover
      popover={popover}
      trigger={{
        onClick: () => void share(),
        disabled: disabled || busy,
        className: "disabled:opacity-50",
        "data-testid": "share-button",
        children: busy ? t("header.sharing") : t("header.share"),
      }}
    >
      {open && (
        <div
          {...panelProps}
          role="dialog"
          aria-label={t("header.title")}
          className={`${headerPanelClass} w-[min(20rem,calc(100vw-2rem))] space-y-2 p-3`}
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
            <button
              type="button"
              onClick={() => close({ refocus: true })}
              className="ml-auto text-zinc-700 underline"
            >
              {t("header.close")}
            </button>
          </div>
        </div>
      )}
    </HeaderPopover>
  );
}
