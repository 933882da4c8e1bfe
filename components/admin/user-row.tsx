"use client";

import { DeleteMemoriesButton } from "@/components/memory/admin-delete-memories";
import { useFormat, useT } from "@/lib/i18n/client";
import { formatCount } from "./format";
import { ResetPasswordButton } from "./reset-password-button";
import type { AdminUserView } from "./types";
import type { Action } from "./user-actions";

const action =
  "rounded px-2 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300";

/** One user in the admin list: who, role, status, counts, and the buttons that ask for an action. */
export function UserRow({
  user: u,
  self,
  onAsk,
  onMemoriesDeleted,
  onMemoriesError,
}: {
  user: AdminUserView;
  self: boolean;
  onAsk: (action: Action) => void;
  onMemoriesDeleted: (message: string) => void;
  onMemoriesError: (error: { code: string; message: string }) => void;
}) {
  const t = useT("admin");
  const format = useFormat();
  const ask = (a: Action) => () => onAsk(a);
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
        <ResetPasswordButton className={action} self={self} onClick={ask("resetPassword")} />
        <DeleteMemoriesButton
          user={u}
          className={`${action} text-zinc-700 hover:bg-zinc-100`}
          onDone={onMemoriesDeleted}
          onError={onMemoriesError}
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
}
