/** The skeleton shown while an admin list or the overview loads (not on pages that may answer 404: see 004). */
export function AdminLoading() {
  return (
    <div className="space-y-3" role="status" aria-live="polite" data-testid="admin-loading">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-64 animate-pulse rounded bg-zinc-200" />
      <div className="h-4 w-96 animate-pulse rounded bg-zinc-200" />
      <div className="h-64 animate-pulse rounded-lg bg-zinc-100" />
    </div>
  );
}
