import Link from "next/link";
import { plural } from "@/components/admin/format";
import { MessagesChart, StatCard } from "@/components/admin/overview";
import { PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getAdminOverview } from "@/lib/db/admin";

export const dynamic = "force-dynamic";

export default async function AdminHome() {
  await requireAdminPage();
  const o = await getAdminOverview();
  return (
    <section>
      <PageHeader
        title="Admin console"
        testId="admin-title"
        description="Review sessions and messages, see what the model was sent, and delete what must go."
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          label="Users"
          value={o.users}
          testId="stat-users"
          href="/admin/users"
          note={`${plural(o.admins, "active admin")}${o.disabledUsers ? ` · ${o.disabledUsers} disabled` : ""}`}
        />
        <StatCard label="Sessions" value={o.sessions} testId="stat-sessions" href="/admin/sessions" />
        <StatCard label="Messages" value={o.messages} testId="stat-messages" />
        <StatCard
          label="Messages, last 7 days"
          value={o.messagesLast7Days}
          testId="stat-messages-7d"
          note="today and the 6 days before (UTC)"
        />
      </div>
      <div className="mt-4">
        <MessagesChart perDay={o.perDay} />
      </div>
      <p className="mt-4 text-sm text-zinc-600">
        Every deletion and account change is recorded in the{" "}
        <Link href="/admin/audit" className="underline">
          audit log
        </Link>
        .
      </p>
    </section>
  );
}
