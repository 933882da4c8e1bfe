import { EmptyState, Notice, PageHeader } from "@/components/admin/page-header";
import { Pager } from "@/components/admin/pager";
import { SearchForm } from "@/components/admin/search-form";
import { SessionsTable } from "@/components/admin/sessions-table";
import { type AdminSessionView, toView } from "@/components/admin/types";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { MAX_QUERY_CHARS } from "@/lib/admin/schemas";
import { listSessionsForAdmin } from "@/lib/db/admin";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";
import { getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

const PAGE = 50;

type Search = Promise<{ q?: string | string[]; cursor?: string | string[] }>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function AdminSessionsPage({ searchParams }: { searchParams: Search }) {
  await requireAdminPage();
  const params = await searchParams;
  const q = one(params.q).trim().slice(0, MAX_QUERY_CHARS);
  const rawCursor = one(params.cursor);
  let cursor: ReturnType<typeof decodeCursor>;
  let badCursor = false;
  try {
    cursor = decodeCursor(rawCursor);
  } catch {
    badCursor = true;
  }
  const { sessions, nextCursor } = await listSessionsForAdmin({ q: q || undefined, cursor, limit: PAGE });
  const t = await getT("admin");

  return (
    <section>
      <PageHeader
        title={t("sessions.title")}
        testId="admin-sessions-title"
        description={t("sessions.description")}
      >
        <SearchForm
          action="/admin/sessions"
          q={q}
          label={t("sessions.searchLabel")}
          placeholder={t("sessions.searchPlaceholder")}
        />
      </PageHeader>
      {badCursor && <Notice>{t("badCursor")}</Notice>}
      {sessions.length === 0 ? (
        q ? (
          <EmptyState title={t("sessions.noMatch", { q })}>{t("sessions.noMatchHint")}</EmptyState>
        ) : (
          <EmptyState title={t("sessions.none")}>{t("sessions.noneHint")}</EmptyState>
        )
      ) : (
        <>
          <SessionsTable sessions={toView<AdminSessionView[]>(sessions)} />
          <Pager
            path="/admin/sessions"
            q={q}
            cursor={cursor ? rawCursor : undefined}
            nextCursor={encodeCursor(nextCursor)}
            shown={sessions.length}
            noun="session"
          />
        </>
      )}
    </section>
  );
}
