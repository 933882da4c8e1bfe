"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { DeleteMemoriesButton } from "@/components/memory/admin-delete-memories";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { useErrorText, useFormat, useT } from "@/lib/i18n/client";
import type { Translator } from "@/lib/i18n/translate";
import { formatCount } from "./format";
import type { AdminUserView } from "./types";

type Action = "promote" | "demote" | "disable" | "enable" | "delete" | "revokeKeys";

function explain(
  t: Translator<"admin">,
  action: Action,
  user: AdminUserView,
  self: boolean,
): React.ReactNode {
  const who = self ? t("users.yourAccount") : user.email;
  const email = user.email;
  switch (action) {
    case "promote":
      return t("users.explain.promote", { email });
    case "demote":
      return self ? t("users.explain.demoteSelf") : t("users.explain.demote", { who });
    case "disable":
      return t("users.explain.disable", { who });
    case "enable":
      return t("users.explain.enable", { who });
    case "revokeKeys":
      return t("users.explain.revokeKeys", { count: user.apiKeyCount, email });
    case "delete":
      return (
        <span className="space-y-2">
          <span className="block">
            {t("users.explain.delete", {
              email,
              sessions: user.sessionCount,
              messages: user.messageCount,
              facts: user.memoryFactCount,
            })}
          </span>
          <span className="block font-medium text-zinc-900">{t("users.explain.cannotUndo")}</span>
        </span>
      );
  }
}

const action =
  "rounded px-2 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300";

/**
 * The user list with its actions. It stays mounted when the list becomes empty (`empty` is shown instead of the
 * table), so the status and the receipt of the last action survive the refresh that removed the row.
 */
export function UsersTable({
  users,
  currentUserId,
  empty,
}: {
  users: AdminUserView[];
  currentUserId: string;
  empty: React.ReactNode;
}) {
  const router = useRouter();
  const [pending, setPending] = useState<{ action: Action; user: AdminUserView } | null>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<{ email: string; receipt: Receipt } | null>(null);
  const tm = useT("memory");
  const t = useT("admin");
  const errorText = useErrorText();
  const format = useFormat();

  async function run() {
    if (!pending) return;
    const { action: act, user } = pending;
    setWorking(true);
    setError(null);
    setDone(null);
    try {
      const res = await fetch(`/api/admin/users/${user.id}${act === "revokeKeys" ? "/keys" : ""}`, {
        method: act === "delete" || act === "revokeKeys" ? "DELETE" : "PATCH",
        headers: { "content-type": "application/json" },
        body:
          act === "delete" || act === "revokeKeys"
            ? undefined
            : JSON.stringify(
                act === "promote" || act === "demote"
                  ? { role: act === "promote" ? "ADMIN" : "USER" }
                  : { disabled: act === "disable" },
              ),
      });
      const body = (await res.json().catch(() => null)) as {
        error?: { code?: string; message?: string };
        receipt?: Receipt;
      } | null;
      if (!res.ok) {
        setError({
          code: body?.error?.code ?? String(res.status),
          message: errorText(body?.error ?? null, t("users.requestFailed", { status: res.status })),
        });
        return;
      }
      if (act === "demote" && user.id === currentUserId) {
        window.location.assign("/");
        return;
      }
      if (act === "delete" && body?.receipt) setReceipt({ email: user.email, receipt: body.receipt });
      setDone(t(`users.done.${act}`, { email: user.email }));
      router.refresh();
    } catch {
      setError({
        code: "network",
        message: t("users.unreachable"),
      });
    } finally {
      setWorking(false);
      setPending(null);
    }
  }

  return (
    <div>
      {error && (
        <p
          role="alert"
          className="mb-3 rounded-md bg-red-50 p-3 text-sm text-red-800"
          data-testid="admin-error"
          data-code={error.code}
        >
          {error.message} <span className="font-mono text-xs text-red-600">({error.code})</span>
        </p>
      )}
      {done && !receipt && (
        <p
          role="status"
          className="mb-3 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
          data-testid="admin-status"
        >
          {done}
        </p>
      )}
      {receipt && (
        <section
          className="mb-3 rounded-md border border-zinc-200 bg-white p-4"
          aria-label={t("users.receipt")}
        >
          <div className="mb-2 flex items-start justify-between gap-3">
            <p role="status" className="text-sm font-medium" data-testid="admin-status">
              {t("users.wasDeleted", { email: receipt.email })}
            </p>
            <button type="button" className="text-xs underline" onClick={() => setReceipt(null)}>
              {t("users.dismiss")}
            </button>
          </div>
          <ReceiptView receipt={receipt.receipt} />
        </section>
      )}

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
              {users.map((u) => {
                const self = u.id === currentUserId;
                const ask = (a: Action) => () => setPending({ action: a, user: u });
                return (
                  <tr
                    key={u.id}
                    className="border-b border-zinc-100 last:border-0"
                    data-testid="admin-user-row"
                    data-email={u.email}
                  >
                    <td className="max-w-xs px-3 py-2">
                      <span className="block truncate font-medium">
                        {u.name}
                        {self && (
                          <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-600">
                            {t("users.you")}
                          </span>
                        )}
                      </span>
                      <span className="block truncate text-xs text-zinc-500">{u.email}</span>
                    </td>
                    <td className="px-3 py-2" data-testid="admin-user-role">
                      {u.role === "ADMIN" ? (
                        <span className="rounded bg-zinc-900 px-1.5 py-0.5 text-xs font-medium text-white">
                          {t("users.admin")}
                        </span>
                      ) : (
                        <span className="text-xs text-zinc-600">{t("users.user")}</span>
                      )}
                    </td>
                    <td className="px-3 py-2" data-testid="admin-user-status">
                      {u.disabledAt ? (
                        <span
                          className="rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-800"
                          title={t("users.disabledSince", { date: format.dateTime(u.disabledAt) })}
                        >
                          {t("users.disabled")}
                        </span>
                      ) : (
                        <span className="text-xs text-zinc-600">{t("users.active")}</span>
                      )}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(u.sessionCount)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(u.messageCount)}</td>
                    <td className="px-3 py-2 text-right tabular-nums" data-testid="admin-user-keys">
                      {formatCount(u.apiKeyCount)}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums" data-testid="admin-user-memories">
                      {formatCount(u.memoryFactCount)}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                      <time dateTime={u.createdAt}>{format.dateTime(u.createdAt)}</time>
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-right">
                      {u.role === "ADMIN" ? (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("demote")}
                          data-testid="user-demote"
                        >
                          {t("users.removeAdmin")}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("promote")}
                          data-testid="user-promote"
                        >
                          {t("users.makeAdmin")}
                        </button>
                      )}
                      {u.disabledAt ? (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("enable")}
                          data-testid="user-enable"
                        >
                          {t("users.enable")}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("disable")}
                          disabled={self}
                          title={self ? t("users.cannotDisableSelf") : undefined}
                          data-testid="user-disable"
                        >
                          {t("users.disable")}
                        </button>
                      )}
                      <button
                        type="button"
                        className={`${action} text-zinc-700 hover:bg-zinc-100`}
                        onClick={ask("revokeKeys")}
                        disabled={u.apiKeyCount === 0}
                        data-testid="user-revoke-keys"
                      >
                        {t("users.revokeKeys")}
                      </button>
                      <DeleteMemoriesButton
                        user={u}
                        className={`${action} text-zinc-700 hover:bg-zinc-100`}
                        onDone={(message) => {
                          setError(null);
                          setReceipt(null);
                          setDone(message);
                          router.refresh();
                        }}
                        onError={(e) => {
                          setDone(null);
                          setError(e);
                        }}
                      />
                      <button
                        type="button"
                        className={`${action} text-red-700 hover:bg-red-50`}
                        onClick={ask("delete")}
                        disabled={self}
                        title={self ? t("users.cannotDeleteSelf") : undefined}
                        data-testid="user-delete"
                      >
                        {t("users.delete")}
                      </button>
                    </td>
                  </tr>
                );
              })}
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
