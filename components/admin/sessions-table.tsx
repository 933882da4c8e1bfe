import Link from "next/link";
import { getFormat, getT } from "@/lib/i18n/server";
import type { AdminSessionView } from "./types";

export async function SessionsTable({ sessions }: { sessions: AdminSessionView[] }) {
  const [t, format] = await Promise.all([getT("admin"), getFormat()]);
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm" data-testid="admin-sessions">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("sessions.colTitle")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("sessions.colOwner")}
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              {t("sessions.colMessages")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("sessions.colCreated")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("sessions.colActivity")} <span aria-hidden="true">↓</span>
              <span className="sr-only">{t("sessions.sorted")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr
              key={s.id}
              className="border-b border-zinc-100 last:border-0 hover:bg-zinc-50"
              data-testid="admin-session-row"
              data-session-id={s.id}
            >
              <td className="max-w-xs px-3 py-2">
                <Link
                  href={`/admin/sessions/${s.id}`}
                  className="block truncate font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-zinc-900"
                  data-testid="admin-session-link"
                >
                  {s.title || <em className="text-zinc-500">{t("untitled")}</em>}
                </Link>
              </td>
              <td className="max-w-xs px-3 py-2">
                <span className="block truncate">{s.owner.name}</span>
                <span className="block truncate text-xs text-zinc-500">{s.owner.email}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums" data-testid="admin-session-count">
                {format.number(s.messageCount)}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                <time dateTime={s.createdAt}>{format.dateTime(s.createdAt)}</time>
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                <time dateTime={s.updatedAt}>{format.dateTime(s.updatedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
