"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";
import type { ToolServer } from "./types";

const stateClass = {
  running: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
  stopped: "bg-zinc-100 text-zinc-800",
} as const;

const stateLabel = { running: "stateRunning", failed: "stateFailed", stopped: "stateStopped" } as const;

export function ServersTable({
  servers,
  busy,
  onToggle,
  onEdit,
  onDelete,
  onTest,
}: {
  servers: ToolServer[];
  busy: string | null;
  onToggle: (s: ToolServer) => void;
  onEdit: (s: ToolServer) => void;
  onDelete: (s: ToolServer) => void;
  onTest: (s: ToolServer) => void;
}) {
  const t = useT("adminTools");
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="tool-servers">
        <thead className="text-zinc-600">
          <tr>
            <th className="py-1 font-medium">{t("colName")}</th>
            <th className="py-1 font-medium">{t("colTransport")}</th>
            <th className="py-1 font-medium">{t("colState")}</th>
            <th className="py-1 font-medium">{t("colTools")}</th>
            <th className="py-1 font-medium">{t("colEnabled")}</th>
            <th className="py-1 font-medium">{t("colActions")}</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => (
            <tr
              key={s.id}
              className="border-t border-zinc-200 align-top"
              data-testid={`tool-server-${s.name}`}
            >
              <td className="py-2 font-medium">
                {s.name}
                {s.readOnly && (
                  <span className="block text-xs font-normal text-zinc-600">{t("readOnly")}</span>
                )}
              </td>
              <td className="py-2">{s.transport}</td>
              <td className="py-2">
                <span
                  className={`rounded px-2 py-0.5 text-xs ${stateClass[s.status.state]}`}
                  data-testid="tool-server-state"
                >
                  {t(stateLabel[s.status.state])}
                </span>
                {s.status.lastError && (
                  <span className="mt-1 block max-w-xs break-words text-xs text-red-800">
                    {t("lastError", { error: s.status.lastError })}
                  </span>
                )}
              </td>
              <td className="py-2 font-mono text-xs">{s.status.toolNames.join(", ") || t("noTools")}</td>
              <td className="py-2">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={s.enabled}
                  checked={s.enabled}
                  disabled={s.readOnly || busy === s.id}
                  onChange={() => onToggle(s)}
                  aria-label={t("enable", { name: s.name })}
                />
              </td>
              <td className="space-x-1 py-2 whitespace-nowrap">
                <Button variant="secondary" disabled={busy === s.id} onClick={() => onTest(s)}>
                  {busy === s.id ? t("testing") : t("test")}
                </Button>
                {!s.readOnly && (
                  <>
                    <Button variant="ghost" onClick={() => onEdit(s)}>
                      {t("edit")}
                    </Button>
                    <Button variant="ghost" className="text-red-700" onClick={() => onDelete(s)}>
                      {t("delete")}
                    </Button>
                  </>
                )}
              </td>
            </tr>
          ))}
          {servers.length === 0 && (
            <tr>
              <td colSpan={6} className="py-2 text-zinc-600">
                {t("none")}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
