"use client";

import { useT } from "@/lib/i18n/client";

export interface FactSent {
  id: string;
  sourceSessionId: string | null;
  sourceMessageId: string | null;
  /** The fact's text now (absent once deleted). */
  text?: string;
  deleted?: boolean;
  replaced?: boolean;
}

/** The long-term facts a turn was sent, each linking to the message it was learned from. */
export function FactsSent({
  facts,
  messageHref,
}: {
  facts: FactSent[];
  messageHref: (sessionId: string, messageId: string) => string;
}) {
  const t = useT("tools");
  return (
    <ul className="mt-1 space-y-0.5 text-xs" aria-label={t("factsSent")} data-testid="context-facts">
      {facts.map((f) => (
        <li key={f.id} data-testid="context-fact" data-fact-id={f.id} className="[overflow-wrap:anywhere]">
          {f.deleted ? (
            <em className="text-zinc-500">{t("factDeleted")}</em>
          ) : (
            <>
              <span className="text-zinc-800">{f.text}</span>
              {f.replaced && <em className="text-zinc-500"> ({t("factReplaced")})</em>} ·{" "}
              {f.sourceSessionId !== null && f.sourceMessageId !== null ? (
                <a
                  href={messageHref(f.sourceSessionId, f.sourceMessageId)}
                  className="underline"
                  data-testid="context-fact-source"
                >
                  {t("factSource")}
                </a>
              ) : (
                <em className="text-zinc-500">{t("factSourceDeleted")}</em>
              )}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
