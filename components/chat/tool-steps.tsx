"use client";

import Link from "next/link";
import type { ToolStepView } from "@/lib/client/types";
import { useT } from "@/lib/i18n/client";

type T = ReturnType<typeof useT<"tools">>;

function parse(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? "");
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One line in words: "Remembered: My favourite colour is teal". */
function stepLabel(t: T, step: ToolStepView): string {
  if (step.ok === undefined) return t("running", { name: step.name });
  const result = parse(step.result);
  if (!step.ok) return t("failed", { name: step.name, error: String(result.error ?? "") });
  const args = parse(step.arguments);
  switch (step.name) {
    case "remember": {
      const fact = String((result.remembered as { text?: string } | undefined)?.text ?? args.fact ?? "");
      return result.already ? t("rememberedAgain", { fact }) : t("remembered", { fact });
    }
    case "forget":
      return t("forgot", { count: Array.isArray(result.forgotten) ? result.forgotten.length : 0 });
    case "search_memories":
      return t("searched", { query: String(args.query ?? "") });
    case "current_time":
      return t("time");
    default:
      return t("other", { name: step.name });
  }
}

const pretty = (text: string | undefined) => {
  try {
    return JSON.stringify(JSON.parse(text ?? ""), null, 2);
  } catch {
    return text ?? "";
  }
};

/** The tools an answer used, each collapsed to one line and expandable to what was asked and returned. */
export function ToolSteps({ steps }: { steps: ToolStepView[] }) {
  const t = useT("tools");
  return (
    <ul className="mb-2 space-y-1" aria-label={t("steps")} data-testid="tool-steps">
      {steps.map((step) => (
        <li key={step.id}>
          <details
            className="rounded-lg border border-zinc-200 bg-zinc-50 text-sm"
            data-testid="tool-step"
            data-tool={step.name}
            data-ok={step.ok === undefined ? "running" : String(step.ok)}
          >
            <summary
              className={`cursor-pointer px-3 py-1.5 [overflow-wrap:anywhere] ${step.ok === false ? "text-red-700" : "text-zinc-700"}`}
            >
              {stepLabel(t, step)}
            </summary>
            <div className="space-y-2 border-t border-zinc-200 px-3 py-2 text-xs">
              <p className="font-medium text-zinc-600">{t("arguments")}</p>
              <pre className="overflow-x-auto whitespace-pre-wrap [overflow-wrap:anywhere]">
                {pretty(step.arguments)}
              </pre>
              {step.result !== undefined && (
                <>
                  <p className="font-medium text-zinc-600">{t("result")}</p>
                  <pre className="overflow-x-auto whitespace-pre-wrap [overflow-wrap:anywhere]">
                    {pretty(step.result)}
                  </pre>
                </>
              )}
              {["remember", "forget", "search_memories"].includes(step.name) && (
                <Link href="/memory" className="underline">
                  {t("manage")}
                </Link>
              )}
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
