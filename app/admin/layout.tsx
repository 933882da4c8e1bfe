import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/auth/session";

// Non-admins get the same 404 as a missing page: the console does not admit that it exists.
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/login?callbackUrl=/admin");
  if (user.role !== "ADMIN") notFound();
  return (
    <div className="min-h-full">
      <header className="border-b border-zinc-200 bg-white">
        <nav className="mx-auto flex max-w-6xl items-center gap-4 px-4 py-3 text-sm" aria-label="Admin">
          <Link href="/admin" className="font-semibold">
            Recall admin
          </Link>
          <Link href="/admin/sessions">Sessions</Link>
          <Link href="/admin/users">Users</Link>
          <Link href="/admin/audit">Audit log</Link>
          <span className="flex-1" />
          <Link href="/" className="text-zinc-600">
            Back to chat
          </Link>
        </nav>
      </header>
      <main className="mx-auto max-w-6xl p-4">{children}</main>
    </div>
  );
}
