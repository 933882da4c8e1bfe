import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { Sidebar } from "@/components/chat/sidebar";
import { SearchDialog } from "@/components/search/search-dialog";
import { getCurrentUser } from "@/lib/auth/session";

const PASSWORD_PAGE = "/settings/password";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  // An administrator reset the password: nothing else until the user has chosen their own.
  if (user.mustChangePassword && (await headers()).get("x-pathname") !== PASSWORD_PAGE)
    redirect(PASSWORD_PAGE);
  return (
    <div className="flex h-dvh flex-col md:flex-row">
      <Sidebar user={{ name: user.name, email: user.email, role: user.role }} />
      <main id="main" tabIndex={-1} className="flex min-h-0 min-w-0 flex-1">
        {children}
      </main>
      <SearchDialog />
    </div>
  );
}
