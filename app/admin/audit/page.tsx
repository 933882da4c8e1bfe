import { AuditTable } from "@/components/admin/audit-table";
import { EmptyState, Notice, PageHeader } from "@/components/admin/page-header";
import { Pager } from "@/components/admin/pager";
import { type AuditEntryView, toView } from "@/components/admin/types";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { listAuditEntries } from "@/lib/db/admin-audit";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

const PAGE = 50;

type Search = Promise<{ cursor?: string | string[] }>;

export default async function AdminAuditPage({ searchParams }: { searchParams: Search }) {
  const admin = await requireAdminPage();
  const raw = (await searchParams).cursor;
  const rawCursor = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  let cursor: ReturnType<typeof decodeCursor>;
  let badCursor = false;
  try {
    cursor = decodeCursor(rawCursor);
  } catch {
    badCursor = true;
  }
  const { entries, nextCursor } = await listAuditEntries({ cursor, limit: PAGE });
  const t = await getT("admin");

  return (
    <section>
      <PageHeader title={t("audit.title")} testId="admin-audit-title" description={t("audit.description")} />
      {badCursor && <Notice>{t("badCursorAudit")}</Notice>}
      {entries.length === 0 ? (
        <EmptyState title={t("audit.none")}>{t("audit.noneHint")}</EmptyState>
      ) : (
        <>
          <AuditTable entries={toView<AuditEntryView[]>(entries)} currentUserId={admin.id} />
          <Pager
            path="/admin/audit"
            cursor={cursor ? rawCursor : undefined}
            nextCursor={encodeCursor(nextCursor)}
            shown={entries.length}
            noun="entry"
          />
        </>
      )}
    </section>
  );
}
