import { LocaleSwitch } from "@/components/i18n/locale-switch";

export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="flex min-h-full flex-col items-center justify-center gap-4 p-6">
      <div className="w-full max-w-sm rounded-xl border border-zinc-200 bg-white p-8 shadow-sm">
        <p className="mb-1 text-sm font-semibold tracking-wide text-zinc-500">Recall</p>
        <h1 className="mb-6 text-2xl font-semibold">{title}</h1>
        {children}
      </div>
      <LocaleSwitch />
    </main>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      id="form-error"
      data-testid="form-error"
      className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700"
    >
      {message}
    </p>
  );
}
