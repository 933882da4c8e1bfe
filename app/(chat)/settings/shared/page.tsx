import type { Metadata } from "next";
import { SharedLinks } from "@/components/share/shared-links";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.shared") };
}

/** Settings → Shared links; the chat layout has already required a signed-in user. */
export default async function SharedLinksPage() {
  const t = await getT("share");
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("list.title")}</h1>
      <p className="mt-1 mb-4 text-sm text-zinc-600">{t("list.intro")}</p>
      <SharedLinks />
    </div>
  );
}
