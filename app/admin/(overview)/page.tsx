import Link from "next/link";
import { MessagesChart, StatCard } from "@/components/admin/overview";
import { PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getAdminOverview } from "@/lib/db/admin";
import { getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

export default async function AdminHome() {
  await requireAdminPage();
  const [o, t] = await Promise.all([getAdminOverview(), getT("admin")]);
  const admins = t("overview.admins", { count: o.admins });
  return (
    <section>
      <PageHeader title={t("overview.title")} testId="admin-title" description={t("overview.description")} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label={t("overview.users")}
          value={o.users}
          testId="stat-users"
          href="/admin/users"
          note={o.disabledUsers ? t("overview.disabled", { admins, count: o.disabledUsers }) : admins}
        />
        <StatCard
          label={t("overview.sessions")}
          value={o.sessions}
          testId="stat-sessions"
          href="/admin/sessions"
        />
        <StatCard label={t("overview.messages")} value={o.messages} testId="stat-messages" />
        <StatCard
          label={t("overview.messages7d")}
          value={o.messagesLast7Days}
          testId="stat-messages-7d"
          note={t("overview.messages7dNote")}
        />
      </div>
      <div className="mt-4">
        <MessagesChart perDay={o.perDay} />
      </div>
      <p className="mt-4 text-sm text-zinc-600">
        {t.rich("overview.auditNote", {
          link: (chunks) => (
            <Link href="/admin/audit" className="underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
    </section>
  );
}
