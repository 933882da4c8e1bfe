"use client";

import Link from "next/link";
import { useState } from "react";
import useSWR from "swr";
import { Button } from "@/components/ui/button";
import { listShares, revokeShare, SHARES_URL, type ShareLinkView } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";

/** The user's share links (GET /api/shares), each with its conversation, when it was made, Open and Revoke. */
export function SharedLinks() {
  const t = useT("share");
  const errorText = useErrorText();
  const format = useFormat();
  const { data, error, mutate } = useSWR(SHARES_URL, listShares);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function revoke(share: ShareLinkView) {
    setRevoking(share.id);
    setNotice(null);
    try {
      await revokeShare(share.id);
      setNotice(t("list.revoked", { title: share.title }));
      await mutate();
    } catch (e) {
      setNotice(errorText(e));
    } finally {
      setRevoking(null);
    }
  }

  return (
    <section aria-label={t("list.title")}>
      <p role="status" className="mb-2 min-h-5 text-sm text-zinc-700" data-testid="shared-notice">
        {notice}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          {t("list.failed", { message: errorText(error) })}
        </p>
      ) : !data ? null : data.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="shared-empty">
          {t("list.empty")}
        </p>
      ) : (
        <ul
          className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white"
          data-testid="shared-list"
        >
          {data.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm"
              data-testid="shared-row"
            >
              <div className="min-w-0 flex-1">
                <Link href={`/c/${s.sessionId}`} className="block truncate font-medium underline">
                  {s.title}
                </Link>
                <p className="text-xs text-zinc-600">
                  {t("list.created", { date: format.dateTime(s.createdAt), n: s.messages })}
                </p>
              </div>
              <a href={s.url} target="_blank" rel="noopener noreferrer" className="text-zinc-700 underline">
                {t("list.open")}
              </a>
              <Button
                variant="ghost"
                onClick={() => void revoke(s)}
                disabled={revoking === s.id}
                data-testid="shared-revoke"
              >
                {revoking === s.id ? t("list.revoking") : t("list.revoke")}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
