"use client";

import type { Receipt } from "@/components/ui/receipt";
import { request } from "@/lib/client/api";
import type { Translator } from "@/lib/i18n/translate";
import type { AdminUserView } from "./types";

export type Action = "promote" | "demote" | "disable" | "enable" | "delete" | "revokeKeys" | "resetPassword";

export function explain(
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
    case "resetPassword":
      return t("users.explain.resetPassword", { who });
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

/**
 * Sends `act` for `user` (PATCH or DELETE /api/admin/users/:id[/keys], POST …/password-reset); a refusal throws the
 * server's RequestError.
 */
export async function sendUserAction(
  act: Action,
  user: AdminUserView,
): Promise<{ receipt?: Receipt; password?: string } | null> {
  if (act === "resetPassword") {
    // The CSRF guard wants a JSON write even without fields.
    const res = await request(`/api/admin/users/${user.id}/password-reset`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    return (await res.json()) as { password: string };
  }
  const remove = act === "delete" || act === "revokeKeys";
  const res = await request(`/api/admin/users/${user.id}${act === "revokeKeys" ? "/keys" : ""}`, {
    method: remove ? "DELETE" : "PATCH",
    headers: { "content-type": "application/json" },
    body: remove
      ? undefined
      : JSON.stringify(
          act === "promote" || act === "demote"
            ? { role: act === "promote" ? "ADMIN" : "USER" }
            : { disabled: act === "disable" },
        ),
  });
  return (await res.json().catch(() => null)) as { receipt?: Receipt } | null;
}
