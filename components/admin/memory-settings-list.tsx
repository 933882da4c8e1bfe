import { formatCount } from "@/components/chat/format";
import { useT } from "@/lib/i18n/client";
import type { SessionReviewView } from "./types";

const POLICY_NAMES = {
  window: "memory.policyWindow",
  tokens: "memory.policyTokens",
  summary: "memory.policySummary",
} as const;

const RECALL_NAMES = {
  off: "memory.recallOff",
  conversation: "memory.recallConversation",
  all: "memory.recallAll",
} as const;

/** The conversation's memory settings in force (its own over the server's defaults). */
export function SettingsList({
  settings,
  memoryStartSeq,
}: {
  settings: SessionReviewView["settings"];
  memoryStartSeq: number;
}) {
  const t = useT("admin");
  return (
    <dl
      className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md bg-white p-2 text-xs"
      data-testid="memory-settings"
    >
      <dt className="text-zinc-500">{t("memory.memory")}</dt>
      <dd data-testid="memory-settings-enabled">{settings.enabled ? t("memory.on") : t("memory.off")}</dd>
      <dt className="text-zinc-500">{t("memory.policy")}</dt>
      <dd data-testid="memory-settings-policy">{t(POLICY_NAMES[settings.policy])}</dd>
      <dt className="text-zinc-500">{t("memory.messages")}</dt>
      <dd>{formatCount(settings.maxMessages)}</dd>
      {settings.policy === "tokens" && (
        <>
          <dt className="text-zinc-500">{t("memory.tokenBudget")}</dt>
          <dd>{formatCount(settings.maxTokens)}</dd>
        </>
      )}
      <dt className="text-zinc-500">{t("memory.recall")}</dt>
      <dd data-testid="memory-settings-recall">{t(RECALL_NAMES[settings.recall])}</dd>
      {settings.recall !== "off" && (
        <>
          <dt className="text-zinc-500">{t("memory.recallMaxTokens")}</dt>
          <dd>{formatCount(settings.recallMaxTokens)}</dd>
        </>
      )}
      <dt className="text-zinc-500">{t("memory.cleared")}</dt>
      <dd data-testid="memory-settings-cleared">
        {memoryStartSeq > 0 ? t("memory.clearedAfter", { seq: memoryStartSeq }) : t("memory.never")}
      </dd>
    </dl>
  );
}
