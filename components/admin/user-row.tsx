"use client";

import { useFormat, useT } from "@/lib/i18n/client";
import { formatCount } from "./format";
import type { AdminUserView } from "./types";
import type { Action } from "./user-actions";
import { UserButtons } from "./user-buttons";

/** One user in the admin list: who, role, status, counts, and the buttons that ask for an action. */
export function UserRow({
  user: u,
  self,
  onlyAdmin,
  onAsk,
  onMemoriesDeleted,
  onMemoriesError,
}: {
  user: AdminUserView;
  self: boolean;
  /** The only enabled administrator: the role cannot be removed (the server would refuse). */
  onlyAdmin: boolean;
  onAsk: (action: Action) => void;
  onMemoriesDeleted: (message: string) => void;
  onMemoriesError: (error: { code: string; message: string }) => void;
}) {
  const t = useT("admin");
  const format = useFormat();
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
      <UserButtons
        user={u}
        self={self}
        onlyAdmin={onlyAdmin}
        onAsk={onAsk}
        onMemoriesDeleted={onMemoriesDeleted}
        onMemoriesError={onMemoriesError}
      />
    </tr>
  );
}
