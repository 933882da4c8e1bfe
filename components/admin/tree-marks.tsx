"use client";

import { useT } from "@/lib/i18n/client";
import type { AdminMessageView } from "./types";

/**
 * Where a message hangs in the tree, when that is not plain from the list: its parent is not the message shown
 * just before it (`seq`; `loaded` when the parent is on the page, so it can be linked), or it starts a new root
 * while others came before it.
 */
export type ParentNote = { seq: number; loaded: boolean } | "root" | null;

/** A message's place in a branched conversation: on the active path or not, its parent, versions, branches. */
export function TreeMarks({ tree, parent }: { tree: AdminMessageView["tree"]; parent: ParentNote }) {
  const t = useT("admin");
  return (
    <p className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs" data-testid="tree-marks">
      {tree.onPath ? (
        <span
          className="rounded bg-sky-50 px-1.5 py-0.5 font-medium text-sky-900"
          title={t("tree.onPathTitle")}
          data-testid="path-badge"
        >
          {tree.activeLeaf ? t("tree.leaf") : t("tree.onPath")}
        </span>
      ) : (
        <span
          className="rounded border border-dashed border-zinc-400 px-1.5 py-0.5 text-zinc-700"
          title={t("tree.offPathTitle")}
          data-testid="path-badge"
        >
          {t("tree.offPath")}
        </span>
      )}
      {parent === "root" && (
        <span className="text-zinc-700" data-testid="parent-note">
          {t("tree.newRoot")}
        </span>
      )}
      {parent !== null && parent !== "root" && (
        <span className="text-zinc-700" data-testid="parent-note">
          {t.rich("tree.replyTo", {
            seq: parent.seq,
            link: (chunks) =>
              parent.loaded ? (
                <a
                  href={`#msg-${parent.seq}`}
                  className="font-mono underline hover:text-zinc-950 focus-visible:outline-2 focus-visible:outline-zinc-900"
                >
                  {chunks}
                </a>
              ) : (
                <span className="font-mono">{chunks}</span>
              ),
          })}
        </span>
      )}
      {tree.siblings > 1 && (
        <span className="text-zinc-700" data-testid="version-note">
          {t("tree.versionOf", { count: tree.siblings })}
        </span>
      )}
      {tree.children > 1 && (
        <span
          className="rounded bg-amber-50 px-1.5 py-0.5 font-medium text-amber-900"
          data-testid="branch-point"
        >
          {t("tree.versionsFollow", { count: tree.children })}
        </span>
      )}
    </p>
  );
}
