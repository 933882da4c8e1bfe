"use client";

import { useT } from "@/lib/i18n/client";
import { formatCount } from "./format";

/** A tool definition a turn offered (its tokens counted in the context), or a server whose tools were missing. */
export interface ContextToolEntry {
  preview: string;
  tokens: number;
  /** Set on a server that could not be reached: its tools were not offered, `preview` says why. */
  unavailable?: string;
}

/** The tools a turn offered the model with what each definition cost, then the servers that were missing. */
export function ContextTools({ tools }: { tools: ContextToolEntry[] }) {
  const t = useT("tools");
  const tc = useT("chat");
  if (tools.length === 0) return null;
  return (
    <ul className="mb-2 space-y-1" aria-label={t("offeredSource")} data-testid="context-tools">
      {tools.map((tool) => (
        <li
          key={`${tool.unavailable ?? ""}:${tool.preview}`}
          className="flex gap-2 rounded bg-white p-2"
          data-testid="context-tool"
          data-unavailable={tool.unavailable ? "true" : "false"}
        >
          <span className="w-36 shrink-0 text-xs text-zinc-500">
            {tool.unavailable ? t("unavailableSource") : t("offeredSource")}
          </span>
          <span
            className={`min-w-0 flex-1 font-mono text-xs [overflow-wrap:anywhere] ${tool.unavailable ? "text-red-700" : ""}`}
          >
            {tool.preview}
          </span>
          <span className="shrink-0 text-xs tabular-nums text-zinc-500" data-testid="context-tool-tokens">
            {tc("context.entryTokens", { count: formatCount(tool.tokens) })}
          </span>
        </li>
      ))}
    </ul>
  );
}
