import { EmptyState, Notice, PageHeader } from "@/components/admin/page-header";
import { Pager } from "@/components/admin/pager";
import { SearchForm } from "@/components/admin/search-form";
import { type AdminUserView, toView } from "@/components/admin/types";
import { UsersTable } from "@/components/admin/users-table";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { MAX_QUERY_CHARS } from "@/lib/admin/schemas";
import { decodeUserCursor, listUsersForAdmin } from "@/lib/db/admin-users";

export const dynamic = "force-dynamic";

const PAGE = 50;

type Search = Promise<{ q?: string | string[]; cursor?: string | string[] }>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

export default async function AdminUsersPage({ searchParams }: { searchParams: Search }) {
  const admin = await requireAdminPage();
  const params = await searchParams;
  const q = one(params.q).trim().slice(0, MAX_QUERY_CHARS);
  const rawCursor = one(params.cursor);
  let afterEmail: string | undefined;
  let badCursor = false;
  try {
    afterEmail = decodeUserCursor(rawCursor);
  } catch {
    badCursor = true;
  }
  const { users, nextCursor } = await listUsersForAdmin({ q: q || undefined, afterEmail, limit: PAGE });

  return (
    <section>
      <PageHeader
        title="Users"
        testId="admin-users-title"
        description="Roles, access and data per account. Recall always keeps at least one active administrator."
      >
        <SearchForm action="/admin/users" q={q} label="Search users" placeholder="Email or name" />
      </PageHeader>
      {badCursor && <Notice>That page link is no longer valid; showing the first page.</Notice>}
      <UsersTable
        users={toView<AdminUserView[]>(users)}
        currentUserId={admin.id}
        empty={<EmptyState title={q ? `No users match “${q}”.` : "No users yet."} />}
      />
      {users.length > 0 && (
        <Pager
          path="/admin/users"
          q={q}
          cursor={afterEmail !== undefined ? rawCursor : undefined}
          nextCursor={nextCursor}
          shown={users.length}
          noun={users.length === 1 ? "user" : "users"}
        />
      )}
    </section>
  );
}
