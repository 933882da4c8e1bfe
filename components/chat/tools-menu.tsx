"use client";

import { useState } from "react";
import useSWR from "swr";
import { HeaderPopover, headerPanelClass, useHeaderPopover } from "@/components/ui/header-popover";
import { getSessionTools, type SessionToolsView, switchSessionTool } from "@/lib/client/api";
import { useErrorText, useT } from "@/lib/i18n/client";

/**
 * The conversation's tool servers in the chat header: a menu with one switch per enabled server (on unless the
 * user switched it off here). A change applies from the next answer.
 */
export function ToolsMenu({ sessionId }: { sessionId: string }) {
  const t = useT("tools");
  const errorText = useErrorText();
  const popover = useHeaderPopover({ haspopup: "true" });
  const { open, panelProps } = popover;
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState<string | null>(null);
  const { data, mutate } = useSWR(
    open ? ["session-tools", sessionId] : null,
    () => getSessionTools(sessionId),
    {
      revalidateOnFocus: false,
    },
  );

  async function toggle(view: SessionToolsView, serverId: string) {
    // Not disabled while saving (that would take the focus away, and Escape with it): a second click waits.
    if (saving) return;
    const on = !view.servers[serverId];
    setSaving(serverId);
    setError(null);
    try {
      await mutate(switchSessionTool(sessionId, serverId, on), {
        optimisticData: { ...view, servers: { ...view.servers, [serverId]: on } },
        rollbackOnError: true,
        revalidate: false,
      });
    } catch (e) {
      setError(t("switchFailed", { reason: errorText(e) }));
    } finally {
      setSaving(null);
    }
  }

  return (
    <HeaderPopover popover={popover} trigger={{ children: t("menu"), "data-testid": "tools-menu" }}>
      {open && (
        <section
          {...panelProps}
          aria-label={t("menuTitle")}
          className={`${headerPanelClass} w-64 p-3`}
          data-testid="tools-menu-panel"
        >
          <h3 className="mb-2 font-medium">{t("menuTitle")}</h3>
          {data && data.available.length === 0 && <p className="text-zinc-500">{t("menuNone")}</p>}
          {data && data.available.length > 0 && (
            <ul className="space-y-1">
              {data.available.map((server) => (
                <li key={server.id}>
                  <label className="flex items-center justify-between gap-2 rounded px-1 py-1 hover:bg-zinc-50">
                    <span className="font-mono text-xs [overflow-wrap:anywhere]">{server.name}</span>
                    <input
                      type="checkbox"
                      role="switch"
                      checked={data.servers[server.id] ?? false}
                      aria-checked={data.servers[server.id] ?? false}
                      aria-busy={saving === server.id}
                      onChange={() => toggle(data, server.id)}
                      data-testid="tool-server-switch"
                      data-server={server.name}
                    />
                  </label>
                </li>
              ))}
            </ul>
          )}
          {data && data.available.length > 0 && <p className="mt-2 text-xs text-zinc-500">{t("menuHint")}</p>}
          {error && (
            <p role="alert" className="mt-2 text-xs text-red-700">
              {error}
            </p>
          )}
        </section>
      )}
    </HeaderPopover>
  );
}
