import Link from "next/link";
import { getT } from "@/lib/i18n/server";

export default async function NotFound() {
  const t = await getT("pages");
  return (
    <main
      id="main"
      tabIndex={-1}
      className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center"
    >
      <h1 className="text-2xl font-semibold" data-testid="not-found">
        {t("notFound.title")}
      </h1>
      <p className="text-zinc-600">{t("notFound.body")}</p>
      <Link href="/" className="underline">
        {t("notFound.back")}
      </Link>
    </main>
  );
}
