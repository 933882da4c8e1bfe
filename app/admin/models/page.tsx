import { ModelsPanel } from "@/components/admin/models/models-panel";
import { PageHeader } from "@/components/admin/page-header";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getT } from "@/lib/i18n/server";
import { listAdminModels } from "@/lib/models/registry";

export const dynamic = "force-dynamic";

export default async function AdminModelsPage() {
  await requireAdminPage();
  const models = await listAdminModels();
  const t = await getT("models");
  return (
    <section>
      <PageHeader title={t("adminTitle")} testId="admin-models-title" description={t("adminDescription")} />
      <ModelsPanel initial={models} />
    </section>
  );
}
