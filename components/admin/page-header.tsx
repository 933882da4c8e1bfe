export function PageHeader({
  title,
  description,
  children,
  testId,
}: {
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  testId?: string;
}) {
  return (
    <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
      <div className="min-w-0">
        <h1 className="truncate text-2xl font-semibold" data-testid={testId}>
          {title}
        </h1>
        {description && <p className="mt-1 text-sm text-zinc-600">{description}</p>}
      </div>
      {children}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div
      className="rounded-lg border border-dashed border-zinc-300 bg-white p-8 text-center"
      data-testid="empty-state"
    >
      <p className="font-medium">{title}</p>
      {children && <div className="mt-1 text-sm text-zinc-600">{children}</div>}
    </div>
  );
}

export function Notice({ tone = "info", children }: { tone?: "info" | "error"; children: React.ReactNode }) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={`mb-4 rounded-md p-3 text-sm ${tone === "error" ? "bg-red-50 text-red-800" : "bg-amber-50 text-amber-900"}`}
    >
      {children}
    </p>
  );
}
