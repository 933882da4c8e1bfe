"use client";

import { DeleteMemoriesButton } from "@/components/memory/admin-delete-memories";
import { useT } from "@/lib/i18n/client";
import { ResetPasswordButton } from "./reset-password-button";
import type { AdminUserView } from "./types";
import type { Action } from "./user-actions";

const action =
  "rounded px-2 py-1 text-xs font-medium focus-visible:outline-2 focus-visible:outline-zinc-900 disabled:cursor-not-allowed disabled:text-zinc-300";

/** A user row's action buttons, each refused here when the server would refuse it. */
export function UserButtons({
  user: u,
  self,
  onlyAdmin,
  onAsk,
  onMemoriesDeleted,
  onMemoriesError,
}: {
  user: AdminUserView;
  self: boolean;
  /** The only enabled administrator: the role cannot be removed. */
  onlyAdmin: boolean;
  onAsk: (action: Action) => void;
  onMemoriesDeleted: (message: string) => void;
  onMemoriesError: (error: { code: string; message: string }) => void;
}) {
  const t = useT("admin");
  const ask = (a: Action) => () => onAsk(a);
  return (
    <td className="whitespace-nowrap px-3 py-2 text-right">
      {u.role === "ADMIN" ? (
        <button
          type="button"
          className={`${action} text-zinc-700 hover:bg-zinc-100`}
          onClick={ask("demote")}
          disabled={onlyAdmin}
          title={onlyAdmin ? t("users.onlyAdmin") : undefined}
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
  );
}
