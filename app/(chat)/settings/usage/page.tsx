import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { UsageChart } from "@/components/settings/usage-chart";
import { getCurrentUser } from "@/lib/auth/session";
import { usageByDay, windowStart } from "@/lib/db/usage";
import { getT } from "@/lib/i18n/server";
import { lastDays, usageSeries } from "@/lib/usage/series";

export const dynamic = "force-dynamic";

const DAYS = 30;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.usage") };
}

/** Settings → Usage: the signed-in user's tokens per day and model (the rows of GET /api/me/usage). */
export default async function UsagePage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  const now = new Date();
  const rows = await usageByDay({ userId: user.id, since: windowStart(DAYS, now) });
  const t = await getT("settings");
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("usage.title")}</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">{t("usage.intro")}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-zinc-600" data-testid="usage-empty">
          {t("usage.empty")}
        </p>
      ) : (
        <UsageChart series={usageSeries(rows, lastDays(DAYS, now))} />
      )}
    </div>
  );
}
