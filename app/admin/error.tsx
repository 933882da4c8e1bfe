"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/client";

export default function AdminError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useT("pages");
  return (
    <div
      role="alert"
      className="mx-auto max-w-lg rounded-lg border border-red-200 bg-red-50 p-6 text-red-900"
    >
      <h1 className="text-lg font-semibold">{t("adminError.title")}</h1>
      <p className="mt-1 text-sm">{t("adminError.body")}</p>
      <Button className="mt-4" variant="secondary" onClick={reset}>
        {t("adminError.retry")}
      </Button>
    </div>
  );
}
