import { EmptyState, Notice, PageHeader } from "@/components/admin/page-header";
import { Pager } from "@/components/admin/pager";
import { SearchForm } from "@/components/admin/search-form";
import { SessionsTable } from "@/components/admin/sessions-table";
import { type AdminSessionView, toView } from "@/components/admin/types";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { MAX_QUERY_CHARS } from "@/lib/admin/schemas";
import { listSessionsForAdmin } from "@/lib/db/admin";
import { decodeCursor, encodeCursor } from "@/lib/db/cursor";

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

  return (
    <section>
      <PageHeader
        title="Sessions"
        testId="admin-sessions-title"
        description="Every conversation, most recently active first. Search by title or owner email."
      >
        <SearchForm
          action="/admin/sessions"
          q={q}
          label="Search sessions"
          placeholder="Title or owner email"
        />
      </PageHeader>
      {badCursor && <Notice>That page link is no longer valid; showing the first page.</Notice>}
      {sessions.length === 0 ? (
        q ? (
          <EmptyState title={`No sessions match “${q}”.`}>
            Search looks at titles and owner emails.
          </EmptyState>
        ) : (
          <EmptyState title="No sessions yet.">
            Conversations appear here as soon as someone starts one.
          </EmptyState>
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
            noun={sessions.length === 1 ? "session" : "sessions"}
          />
        </>
      )}
    </section>
  );
}
