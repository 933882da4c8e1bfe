"use client";

import { versionsKey } from "@/lib/client/branches";
import type { Siblings } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";

export type VersionStep = "previous" | "next";

/**
 * "‹ 2 / 3 ›" under a message with other versions: the arrows show the version before or after this
 * one. Named for screen readers ("Previous version", "Version 2 of 3"); disabled while an answer is written.
 */
export function VersionSwitcher({
  siblings,
  disabled,
  onStep,
}: {
  siblings: Siblings;
  disabled: boolean;
  onStep: (step: VersionStep) => void;
}) {
  const t = useT("chat");
  const position = siblings.index + 1;
  const arrow =
    "rounded px-1.5 py-0.5 text-sm leading-none hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <fieldset
      aria-label={t("versions.label")}
      className="inline-flex items-center gap-0.5"
      data-testid="version-switcher"
      data-versions={versionsKey(siblings)}
    >
      <button
        type="button"
        className={arrow}
        aria-label={t("versions.previous")}
        disabled={disabled || siblings.index === 0}
        onClick={() => onStep("previous")}
        data-testid="version-previous"
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span className="tabular-nums" data-testid="version-position">
        <span aria-hidden="true">
          {position} / {siblings.count}
        </span>
        <span className="sr-only">{t("versions.position", { index: position, count: siblings.count })}</span>
      </span>
      <button
        type="button"
        className={arrow}
        aria-label={t("versions.next")}
        disabled={disabled || siblings.index >= siblings.count - 1}
        onClick={() => onStep("next")}
        data-testid="version-next"
      >
        <span aria-hidden="true">›</span>
      </button>
    </fieldset>
  );
}
