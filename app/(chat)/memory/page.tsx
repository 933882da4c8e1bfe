import type { Metadata } from "next";
import { ExtractionMode } from "@/components/memory/extraction-mode";
import { LongTermSwitch } from "@/components/memory/long-term-switch";
import { MemoryList } from "@/components/memory/memory-list";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT("memory");
  return { title: `${t("title")} · Recall` };
}

/** What Recall remembers about the user across conversations; the chat layout has already required a sign-in. */
export default async function MemoryPage() {
  const t = await getT("memory");
  return (
    <div className="w-full overflow-y-auto">
      <div className="mx-auto w-full max-w-2xl space-y-6 p-4 sm:p-6">
        <header>
          <h1 className="text-xl font-semibold" data-testid="memory-title">
            {t("heading")}
          </h1>
          <p className="mt-1 text-sm text-zinc-600">{t("intro")}</p>
        </header>
        <LongTermSwitch />
        <ExtractionMode />
        <MemoryList />
      </div>
    </div>
  );
}
