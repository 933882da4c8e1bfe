import { InvitesPanel } from "@/components/admin/invites-panel";
import { PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { listInvites } from "@/lib/db/invites";
import { env } from "@/lib/env";
import { getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

export default async function AdminInvitesPage() {
  await requireAdminPage();
  const invites = await listInvites();
  const t = await getT("admin");
  return (
    <section>
      <PageHeader
        title={t("invites.title")}
        testId="admin-invites-title"
        description={
          env.REGISTRATION === "invite"
            ? t("invites.descriptionInvite")
            : env.REGISTRATION === "open"
              ? t("invites.descriptionOpen")
              : t("invites.descriptionClosed")
        }
      />
      <InvitesPanel
        initial={invites.map((i) => ({
          id: i.id,
          createdAt: i.createdAt.toISOString(),
          expiresAt: i.expiresAt.toISOString(),
          usedAt: i.usedAt?.toISOString() ?? null,
          createdBy: i.createdBy,
        }))}
      />
    </section>
  );
}
