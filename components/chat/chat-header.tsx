import { useT } from "@/lib/i18n/client";
import { MemoryControl } from "./memory-control";
import type { ModelInfo } from "./types";

export function ChatHeader({
  modelInfo,
  sessionId,
  streaming,
}: {
  modelInfo: ModelInfo;
  /** The conversation, once it exists: its memory control is shown from then on. */
  sessionId: string | null;
  streaming: boolean;
}) {
  const t = useT("chat");
  return (
    <header className="flex items-center justify-between gap-3 border-b border-zinc-200 bg-white px-4 py-2 text-sm">
      <span className="text-zinc-500">
        {t("header.model")} <span className="font-medium text-zinc-800">{modelInfo.model}</span>
        {modelInfo.offline && (
          <span
            className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800"
            data-testid="offline-badge"
            title={t("header.offlineTitle")}
          >
            {t("header.offline")}
          </span>
        )}
      </span>
      {sessionId && <MemoryControl key={sessionId} sessionId={sessionId} streaming={streaming} />}
    </header>
  );
}
