"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { Receipt } from "@/components/ui/receipt";
import { RequestError } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";
import type { AdminUserView } from "./types";
import { type Action, explain, sendUserAction } from "./user-actions";
import { UserNotices } from "./user-notices";
import { UserRow } from "./user-row";

/**
 * The user list with its actions. It stays mounted when the list becomes empty (`empty` is shown instead of the
 * table), so the status and the receipt of the last action survive the refresh that removed the row.
 */
export function UsersTable({
  users,
  currentUserId,
  activeAdmins,
  empty,
}: {
  users: AdminUserView[];
  currentUserId: string;
  /** Enabled administrators in all (not only on this page). */
  activeAdmins: number;
  empty: React.ReactNode;
}) {
  const router = useRouter();
  const [pending, setPending] = useState<{ action: Action; user: AdminUserView } | null>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<{ email: string; receipt: Receipt } | null>(null);
  const [oneTime, setOneTime] = useState<{ email: string; password: string } | null>(null);
  const tm = useT("memory");
  const t = useT("admin");
  const errorText = useErrorText();

  async function run() {
    if (!pending) return;
    const { action: act, user } = pending;
    setWorking(true);
    setError(null);
    setDone(null);
    setOneTime(null);
    try {
      const body = await sendUserAction(act, user);
      if (act === "demote" && user.id === currentUserId) {
        window.location.assign("/");
        return;
      }
      if (act === "delete" && body?.receipt) setReceipt({ email: user.email, receipt: body.receipt });
      if (body?.password) setOneTime({ email: user.email, password: body.password });
      setDone(t(`users.done.${act}`, { email: user.email }));
      router.refresh();
    } catch (e) {
      if (e instanceof RequestError && e.status > 0) {
        const server = e.code ? { code: e.code, message: e.message } : null;
        setError({
          code: e.code ?? String(e.status),
          message: errorText(server, t("users.requestFailed", { status: e.status })),
        });
      } else setError({ code: "network", message: t("users.unreachable") });
    } finally {
      setWorking(false);
      setPending(null);
    }
  }

  return (
    <div>
      <UserNotices
        error={error}
        done={done}
        receipt={receipt}
        oneTime={oneTime}
        onDismiss={() => setReceipt(null)}
      />

      {users.length === 0 ? (
        empty
      ) : (
        <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm" data-testid="admin-users">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("users.colUser")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("users.colRole")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("users.colStatus")}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  {t("users.colSessions")}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  {t("users.colMessages")}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  {t("users.colKeys")}
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  {tm("admin.column")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("users.colJoined")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">{t("users.colActions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  self={u.id === currentUserId}
                  onlyAdmin={u.role === "ADMIN" && !u.disabledAt && activeAdmins <= 1}
                  onAsk={(a) => setPending({ action: a, user: u })}
                  onMemoriesDeleted={(message) => {
                    setError(null);
                    setReceipt(null);
                    setDone(message);
                    router.refresh();
                  }}
                  onMemoriesError={(e) => {
                    setDone(null);
                    setError(e);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending ? t("users.confirmQuestion", { action: t(`users.action.${pending.action}`) }) : ""}
        confirmLabel={pending ? t(`users.action.${pending.action}`) : ""}
        pending={working}
        onCancel={() => setPending(null)}
        onConfirm={run}
        body={pending ? explain(t, pending.action, pending.user, pending.user.id === currentUserId) : null}
      />
    </div>
  );
}
