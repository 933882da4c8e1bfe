import type { Metadata } from "next";
import { DataExport } from "@/components/settings/data-export";
import { DataImport } from "@/components/settings/data-import";
import { env } from "@/lib/env";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("data"))("metaTitle") };
}

/** Settings → Your data: export everything, import an export; the chat layout has already required a sign-in. */
export default async function DataPage() {
  const t = await getT("data");
  return (
    <div className="w-full overflow-y-auto">
      <div className="mx-auto w-full max-w-2xl space-y-6 p-4 sm:p-6">
        <header>
          <h1 className="text-xl font-semibold" data-testid="data-title">
            {t("title")}
          </h1>
          <p className="mt-1 text-sm text-zinc-600">{t("intro")}</p>
        </header>
        <DataExport />
        <DataImport maxBytes={env.MAX_IMPORT_BYTES} />
      </div>
    </div>
  );
}
