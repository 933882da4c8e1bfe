import { AdminNav } from "@/components/admin/admin-nav";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getT } from "@/lib/i18n/server";

// Only an admin's tab says "Admin": anyone else gets the 404's title too.
export async function generateMetadata() {
  await requireAdminPage();
  return { title: (await getT("pages"))("meta.admin") };
}

// Non-admins get the same 404 as a missing page: the console does not admit that it exists.
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const user = await requireAdminPage();
  return (
    <div className="min-h-full">
      <header className="border-b border-zinc-200 bg-white">
        <AdminNav user={{ name: user.name, email: user.email }} />
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto max-w-7xl p-4 [overflow-wrap:anywhere] [&_button]:[overflow-wrap:normal]"
      >
        {children}
      </main>
    </div>
  );
}
