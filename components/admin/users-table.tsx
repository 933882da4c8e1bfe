"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { type Receipt, ReceiptView } from "@/components/ui/receipt";
import { formatCount, formatDateTime, plural } from "./format";
import type { AdminUserView } from "./types";

type Action = "promote" | "demote" | "disable" | "enable" | "delete" | "revokeKeys";

const confirmLabel: Record<Action, string> = {
  promote: "Make administrator",
  demote: "Remove administrator role",
  disable: "Disable account",
  enable: "Enable account",
  delete: "Delete user and data",
  revokeKeys: "Revoke API keys",
};

function explain(action: Action, user: AdminUserView, self: boolean): React.ReactNode {
  const who = self ? "your account" : user.email;
  switch (action) {
    case "promote":
      return `${user.email} will be able to read every conversation, delete sessions and manage users.`;
    case "demote":
      return self
        ? "You will lose access to this console at once. Another administrator can give it back."
        : `${who} keeps their account and conversations but loses access to this console.`;
    case "disable":
      return `${who} is signed out at once and cannot sign in or chat until enabled again. Their conversations are kept.`;
    case "enable":
      return `${who} can sign in and chat again.`;
    case "revokeKeys":
      return `The ${plural(user.apiKeyCount, "API key")} of ${user.email} will stop working at once. Their conversations are kept.`;
    case "delete":
      return (
        <span className="space-y-2">
          <span className="block">
            {user.email} and all their conversations will be removed: {plural(user.sessionCount, "session")}{" "}
            and {plural(user.messageCount, "message")}, with their memory snapshots and recorded contexts.
            Audit entries they made are kept without their name.
          </span>
          <span className="block font-medium text-zinc-900">This cannot be undone.</span>
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
          message: body?.error?.message ?? `Request failed (${res.status}).`,
        });
        return;
      }
      if (act === "demote" && user.id === currentUserId) {
        window.location.assign("/");
        return;
      }
      if (act === "delete" && body?.receipt) setReceipt({ email: user.email, receipt: body.receipt });
      setDone(
        {
          promote: `${user.email} is now an administrator.`,
          demote: `${user.email} is no longer an administrator.`,
          disable: `${user.email} is disabled.`,
          enable: `${user.email} is enabled again.`,
          delete: `${user.email} was deleted.`,
          revokeKeys: `The API keys of ${user.email} are revoked.`,
        }[act],
      );
      router.refresh();
    } catch {
      setError({
        code: "network",
        message: "The server could not be reached. Nothing was changed; try again.",
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
          aria-label="Deletion receipt"
        >
          <div className="mb-2 flex items-start justify-between gap-3">
            <p role="status" className="text-sm font-medium" data-testid="admin-status">
              {receipt.email} was deleted.
            </p>
            <button type="button" className="text-xs underline" onClick={() => setReceipt(null)}>
              Dismiss
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
                  User
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Role
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Status
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Sessions
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  Messages
                </th>
                <th scope="col" className="px-3 py-2 text-right font-medium">
                  API keys
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Joined
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  <span className="sr-only">Actions</span>
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
                            you
                          </span>
                        )}
                      </span>
                      <span className="block truncate text-xs text-zinc-500">{u.email}</span>
                    </td>
                    <td className="px-3 py-2" data-testid="admin-user-role">
                      {u.role === "ADMIN" ? (
                        <span className="rounded bg-zinc-900 px-1.5 py-0.5 text-xs font-medium text-white">
                          admin
                        </span>
                      ) : (
                        <span className="text-xs text-zinc-600">user</span>
                      )}
                    </td>
                    <td className="px-3 py-2" data-testid="admin-user-status">
                      {u.disabledAt ? (
                        <span
                          className="rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-800"
                          title={`since ${formatDateTime(u.disabledAt)}`}
                        >
                          disabled
                        </span>
                      ) : (
                        <span className="text-xs text-zinc-600">active</span>
                      )}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(u.sessionCount)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{formatCount(u.messageCount)}</td>
                    <td className="px-3 py-2 text-right tabular-nums" data-testid="admin-user-keys">
                      {formatCount(u.apiKeyCount)}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                      <time dateTime={u.createdAt}>{formatDateTime(u.createdAt)}</time>
                    </td>
                    <td className="whitespace-nowrap px-3 py-2 text-right">
                      {u.role === "ADMIN" ? (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("demote")}
                          data-testid="user-demote"
                        >
                          Remove admin
                        </button>
                      ) : (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("promote")}
                          data-testid="user-promote"
                        >
                          Make admin
                        </button>
                      )}
                      {u.disabledAt ? (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("enable")}
                          data-testid="user-enable"
                        >
                          Enable
                        </button>
                      ) : (
                        <button
                          type="button"
                          className={`${action} text-zinc-700 hover:bg-zinc-100`}
                          onClick={ask("disable")}
                          disabled={self}
                          title={self ? "You cannot disable your own account." : undefined}
                          data-testid="user-disable"
                        >
                          Disable
                        </button>
                      )}
                      <button
                        type="button"
                        className={`${action} text-zinc-700 hover:bg-zinc-100`}
                        onClick={ask("revokeKeys")}
                        disabled={u.apiKeyCount === 0}
                        data-testid="user-revoke-keys"
                      >
                        Revoke keys
                      </button>
                      <button
                        type="button"
                        className={`${action} text-red-700 hover:bg-red-50`}
                        onClick={ask("delete")}
                        disabled={self}
                        title={self ? "You cannot delete your own account." : undefined}
                        data-testid="user-delete"
                      >
                        Delete…
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
        title={pending ? `${confirmLabel[pending.action]}?` : ""}
        confirmLabel={pending ? confirmLabel[pending.action] : ""}
        pending={working}
        onCancel={() => setPending(null)}
        onConfirm={run}
        body={pending ? explain(pending.action, pending.user, pending.user.id === currentUserId) : null}
      />
    </div>
  );
}
