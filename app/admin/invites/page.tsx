import { InvitesPanel } from "@/components/admin/invites-panel";
import { PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { listInvites } from "@/lib/db/invites";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function AdminInvitesPage() {
  await requireAdminPage();
  const invites = await listInvites();
  return (
    <section>
      <PageHeader
        title="Invites"
        testId="admin-invites-title"
        description={
          env.REGISTRATION === "invite"
            ? "Sign-up needs an invite code. Each code creates one account and is shown only once."
            : `Sign-up is ${env.REGISTRATION} (REGISTRATION). Codes made here work once it is set to invite.`
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
