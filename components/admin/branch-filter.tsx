"use client";

import { useT } from "@/lib/i18n/client";

/** Which messages the history shows: every branch, or only the path to the active leaf. */
export type Branches = "all" | "path";

/** The legend of a branched history and its filter (all branches, or the active path only). */
export function BranchFilter({
  branches,
  onChange,
  hidden,
}: {
  branches: Branches;
  onChange: (branches: Branches) => void;
  /** How many messages the filter hides. */
  hidden: number;
}) {
  const t = useT("admin");
  return (
    <div
      className="mb-3 space-y-2 rounded-md bg-zinc-100 p-2 text-xs text-zinc-700"
      data-testid="tree-legend"
    >
      <p>{t("tree.legend")}</p>
      <fieldset className="flex flex-wrap items-center gap-1" data-testid="branch-filter">
        <legend className="float-left mr-1 font-medium">{t("tree.filterLabel")}</legend>
        {(["all", "path"] as const).map((choice) => (
          <label
            key={choice}
            className="cursor-pointer rounded-md border border-zinc-300 bg-white px-2 py-1 has-[:checked]:border-zinc-900 has-[:checked]:bg-zinc-900 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-1 has-[:focus-visible]:outline-zinc-900"
          >
            <input
              type="radio"
              name="branches"
              value={choice}
              className="sr-only"
              checked={branches === choice}
              onChange={() => onChange(choice)}
              data-testid={`branches-${choice}`}
            />
            {choice === "all" ? t("tree.all") : t("tree.pathOnly")}
          </label>
        ))}
      </fieldset>
      {hidden > 0 && <p data-testid="branches-hidden">{t("tree.hidden", { count: hidden })}</p>}
    </div>
  );
}
