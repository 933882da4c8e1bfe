import { getT } from "@/lib/i18n/server";

/** The skeleton shown while an admin list or the overview loads (not on pages that may answer 404: see 004). */
export async function AdminLoading() {
  const t = await getT("admin");
  return (
    <div className="space-y-3" role="status" aria-live="polite" data-testid="admin-loading">
      <span className="sr-only">{t("loading")}</span>
      <div className="h-8 w-64 max-w-full animate-pulse rounded bg-zinc-200" />
      <div className="h-4 w-96 max-w-full animate-pulse rounded bg-zinc-200" />
      <div className="h-64 animate-pulse rounded-lg bg-zinc-100" />
    </div>
  );
}
