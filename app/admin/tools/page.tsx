import { PageHeader } from "@/components/admin/page-header";
import { ToolsPanel } from "@/components/admin/tools/tools-panel";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getT } from "@/lib/i18n/server";
import { mcpServerStatus } from "@/lib/mcp";
import { listServerConfigs, viewOf } from "@/lib/mcp/servers";

export const dynamic = "force-dynamic";

export default async function AdminToolsPage() {
  await requireAdminPage();
  const servers = (await listServerConfigs()).map((c) => ({ ...viewOf(c), status: mcpServerStatus(c.id) }));
  const t = await getT("adminTools");
  return (
    <section>
      <PageHeader title={t("title")} testId="admin-tools-title" description={t("description")} />
      <ToolsPanel initial={servers} />
    </section>
  );
}
