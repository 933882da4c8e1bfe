import Link from "next/link";
import { formatCount, formatDateTime } from "./format";
import type { AdminSessionView } from "./types";

export function SessionsTable({ sessions }: { sessions: AdminSessionView[] }) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-zinc-200 bg-white">
      <table className="w-full text-left text-sm" data-testid="admin-sessions">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Title
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Owner
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Messages
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Created
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Last activity <span aria-hidden="true">↓</span>
              <span className="sr-only">(sorted, newest first)</span>
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
                  {s.title || <em className="text-zinc-500">(untitled)</em>}
                </Link>
              </td>
              <td className="max-w-xs px-3 py-2">
                <span className="block truncate">{s.owner.name}</span>
                <span className="block truncate text-xs text-zinc-500">{s.owner.email}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums" data-testid="admin-session-count">
                {formatCount(s.messageCount)}
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
              </td>
              <td className="whitespace-nowrap px-3 py-2 text-zinc-600">
                <time dateTime={s.updatedAt}>{formatDateTime(s.updatedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
