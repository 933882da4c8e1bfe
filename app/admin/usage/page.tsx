import type { Metadata } from "next";
import { EmptyState, PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { usageByUserAndModel, windowStart } from "@/lib/db/usage";
import { getFormat, getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.adminUsage") };
}

const cell = "px-3 py-2 text-right tabular-nums";

/** Usage per user and model over the last 30 days, heaviest first (one grouped statement). */
export default async function AdminUsagePage() {
  await requireAdminPage();
  const rows = await usageByUserAndModel({ since: windowStart(30) });
  const [t, format] = await Promise.all([getT("admin"), getFormat()]);
  return (
    <section>
      <PageHeader title={t("usage.title")} testId="admin-usage-title" description={t("usage.description")} />
      {rows.length === 0 ? (
        <EmptyState title={t("usage.empty")} />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white">
          <table className="w-full text-left text-sm" data-testid="admin-usage">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("usage.user")}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {t("usage.model")}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t("usage.prompt")}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t("usage.completion")}
                </th>
                <th scope="col" className={`${cell} font-medium`}>
                  {t("usage.answers")}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={`${r.userId}/${r.model}`}
                  className="border-b border-zinc-100 last:border-0"
                  data-testid="admin-usage-row"
                >
                  <td className="max-w-xs px-3 py-2">
                    <span className="block truncate font-medium">{r.name}</span>
                    <span className="block truncate text-xs text-zinc-600">{r.email}</span>
                  </td>
                  <td className="px-3 py-2">{r.model}</td>
                  <td className={cell}>{format.number(r.promptTokens)}</td>
                  <td className={cell}>{format.number(r.completionTokens)}</td>
                  <td className={cell}>{format.number(r.answers)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
