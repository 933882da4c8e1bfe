"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { answered, sendJson, serverErrorOf } from "@/lib/client/api";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";

export interface InviteRow {
  id: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
  createdBy: string | null;
}

export function InvitesPanel({ initial }: { initial: InviteRow[] }) {
  const t = useT("admin");
  const errorText = useErrorText();
  const format = useFormat();
  const status = (i: InviteRow): string => {
    if (i.usedAt) return t("invites.used", { date: format.dateTime(i.usedAt) });
    if (new Date(i.expiresAt) < new Date()) return t("invites.expired");
    return t("invites.validUntil", { date: format.dateTime(i.expiresAt) });
  };
  const [rows, setRows] = useState(initial);
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function create() {
    setPending(true);
    setError(null);
    try {
      const data = await sendJson<{
        code?: string;
        invite?: {
          id: string;
          createdAt: string;
          expiresAt: string;
          usedAt: string | null;
          createdBy: string | null;
        };
      } | null>("/api/admin/invites", "POST", { validDays: 7 });
      if (!data?.code || !data.invite) {
        setError(errorText(null, t("invites.createFailed")));
        return;
      }
      setCode(data.code);
      setRows((r) => [data.invite as InviteRow, ...r]);
    } catch (e) {
      setError(
        answered(e) ? errorText(serverErrorOf(e), t("invites.createFailed")) : t("invites.unreachable"),
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3">
        <Button onClick={() => void create()} disabled={pending} data-testid="create-invite">
          {pending ? t("invites.creating") : t("invites.create")}
        </Button>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
      {code && (
        <p className="rounded-md border border-zinc-300 bg-zinc-50 p-3 text-sm">
          {t("invites.newCode")}{" "}
          <code className="font-mono font-semibold" data-testid="invite-code">
            {code}
          </code>
        </p>
      )}
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="text-zinc-500">
            <tr>
              <th className="py-1 font-medium">{t("invites.colCreated")}</th>
              <th className="py-1 font-medium">{t("invites.colBy")}</th>
              <th className="py-1 font-medium">{t("invites.colStatus")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i.id} className="border-t border-zinc-200">
                <td className="py-1">{format.dateTime(i.createdAt)}</td>
                <td className="py-1">{i.createdBy ?? "—"}</td>
                <td className="py-1">{status(i)}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="py-2 text-zinc-500">
                  {t("invites.none")}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
