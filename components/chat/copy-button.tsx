"use client";

import { useEffect, useRef, useState } from "react";
import { useT } from "@/lib/i18n/client";

/** How long "Copied" stays before the button says "Copy" again (a failure stays until the next try). */
const COPIED_MS = 2000;

type CopyState = "idle" | "copied" | "failed";

/** Writes text to the clipboard and says how it went; a refusal (no permission, insecure page) is "failed". */
function useCopy() {
  const [state, setState] = useState<CopyState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function copy(text: string) {
    clearTimeout(timer.current);
    try {
      if (!navigator.clipboard) throw new Error("No clipboard");
      await navigator.clipboard.writeText(text);
      setState("copied");
      timer.current = setTimeout(() => setState("idle"), COPIED_MS);
    } catch {
      setState("failed");
    }
  }
  return { state, copy };
}

/**
 * A copy button that says "Copied" when it worked and, when the browser refused, shows why next to it. Both are
 * announced (a polite live region that is always in the page, so screen readers hear the change).
 */
export function CopyButton({
  text,
  label,
  className = "",
  testId,
}: {
  text: string;
  /** The accessible name when it should say more than "Copy" (e.g. "Copy message"); starts with the visible word. */
  label?: string;
  className?: string;
  testId: string;
}) {
  const t = useT("chat");
  const { state, copy } = useCopy();
  return (
    <>
      <button
        type="button"
        onClick={() => void copy(text)}
        className={className}
        data-testid={testId}
        data-copy-state={state}
        aria-label={state === "idle" ? label : undefined}
      >
        {state === "copied" ? t("copy.copied") : t("copy.copy")}
      </button>
      <span aria-live="polite" data-testid={`${testId}-status`}>
        {state === "copied" ? (
          <span className="sr-only">{t("copy.copied")}</span>
        ) : state === "failed" ? (
          <span className="font-medium text-red-700">{t("copy.failed")}</span>
        ) : null}
      </span>
    </>
  );
}
