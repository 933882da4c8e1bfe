"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";

export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useT("pages");
  return (
    <main
      id="main"
      tabIndex={-1}
      className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center"
      role="alert"
    >
      <h1 className="text-2xl font-semibold">{t("error.title")}</h1>
      <p className="max-w-md text-zinc-600">{t("error.body")}</p>
      <Button onClick={reset}>{t("error.retry")}</Button>
    </main>
  );
}
