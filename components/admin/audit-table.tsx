import { getFormat, getT } from "@/lib/i18n/server";
import type { AuditEntryView } from "./types";

/** Details are ids and counts (and role names); anything else is shown as plain text, never rendered as markup. */
function Details({ details }: { details: unknown }) {
  if (details === null || typeof details !== "object" || Array.isArray(details)) {
    return <span className="text-zinc-500">—</span>;
  }
  const entries = Object.entries(details as Record<string, unknown>);
  if (entries.length === 0) return <span className="text-zinc-500">—</span>;
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-0.5">
      {entries.map(([key, value]) => (
        <li key={key} className="whitespace-nowrap">
          <span className="font-mono text-zinc-500">{key}</span>{" "}
          <span className="tabular-nums">
            {typeof value === "object" ? JSON.stringify(value) : String(value)}
          </span>
        </li>
      ))}
    </ul>
  );
}

export async function AuditTable({
  entries,
  currentUserId,
}: {
  entries: AuditEntryView[];
  currentUserId: string;
}) {
  const [t, format] = await Promise.all([getT("admin"), getFormat()]);
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm" data-testid="admin-audit">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("audit.colWhen")} <span aria-hidden="true">↓</span>
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("audit.colWho")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("audit.colAction")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("audit.colTarget")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("audit.colDetails")}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr
              key={e.id}
              className="border-b border-zinc-100 align-top last:border-0"
              data-testid="audit-row"
              data-action={e.action}
              data-target-id={e.targetId}
            >
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                <time dateTime={e.createdAt}>{format.dateTimeSeconds(e.createdAt)}</time>
              </td>
              <td className="max-w-[14rem] px-3 py-2">
                {e.actor ? (
                  <>
                    <span className="block truncate">
                      {e.actor.name}
                      {e.actor.id === currentUserId && (
                        <span className="ml-1 text-xs text-zinc-500">{t("audit.you")}</span>
                      )}
                    </span>
                    <span className="block truncate text-xs text-zinc-500">{e.actor.email}</span>
                  </>
                ) : (
                  <span className="text-zinc-500" title={t("audit.deletedAccountTitle")}>
                    {t("audit.deletedAccount")}
                  </span>
                )}
              </td>
              <td className="px-3 py-2">
                <span className="block">{t.dynamic(`audit.actions.${e.action}`, e.action)}</span>
                <span className="block whitespace-nowrap font-mono text-xs text-zinc-500">{e.action}</span>
              </td>
              <td className="px-3 py-2">
                <span className="block text-xs text-zinc-500">{e.targetType}</span>
                <span className="block font-mono text-xs break-all">{e.targetId}</span>
              </td>
              <td className="px-3 py-2 text-xs">
                <Details details={e.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
