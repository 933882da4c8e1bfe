import { EmptyState, Notice, PageHeader } from "@/components/admin/page-header";
import { Pager } from "@/components/admin/pager";
import { SearchForm } from "@/components/admin/search-form";
import { type AdminUserView, toView } from "@/components/admin/types";
import { UsersTable } from "@/components/admin/users-table";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { MAX_QUERY_CHARS } from "@/lib/admin/schemas";
import { countActiveAdmins, listUsersForAdmin } from "@/lib/db/admin-users";
import { decodeKeyCursor } from "@/lib/db/cursor";
import { getT } from "@/lib/i18n/server";

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
    afterEmail = decodeKeyCursor(rawCursor);
  } catch {
    badCursor = true;
  }
  const [{ users, nextCursor }, activeAdmins] = await Promise.all([
    listUsersForAdmin({ q: q || undefined, afterEmail, limit: PAGE }),
    countActiveAdmins(),
  ]);
  const t = await getT("admin");

  return (
    <section>
      <PageHeader title={t("users.title")} testId="admin-users-title" description={t("users.description")}>
        <SearchForm
          action="/admin/users"
          q={q}
          label={t("users.searchLabel")}
          placeholder={t("users.searchPlaceholder")}
        />
      </PageHeader>
      {badCursor && <Notice>{t("badCursor")}</Notice>}
      <UsersTable
        users={toView<AdminUserView[]>(users)}
        currentUserId={admin.id}
        activeAdmins={activeAdmins}
        empty={<EmptyState title={q ? t("users.noMatch", { q }) : t("users.none")} />}
      />
      {users.length > 0 && (
        <Pager
          path="/admin/users"
          q={q}
          cursor={afterEmail !== undefined ? rawCursor : undefined}
          nextCursor={nextCursor}
          shown={users.length}
          noun="user"
        />
      )}
    </section>
  );
}
