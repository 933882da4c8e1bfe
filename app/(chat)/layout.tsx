import { redirect } from "next/navigation";
import { PasswordGate } from "@/components/auth/password-gate";
import { Sidebar } from "@/components/chat/sidebar";
import { SearchDialog } from "@/components/search/search-dialog";
import { getCurrentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  return (
    <div className="flex h-dvh flex-col md:flex-row">
      <Sidebar
        user={{ name: user.name, email: user.email, role: user.role }}
        projectFileMaxBytes={env.PROJECT_FILE_MAX_BYTES}
      />
      <main id="main" tabIndex={-1} className="flex min-h-0 min-w-0 flex-1">
        {/* An administrator reset the password: nothing else until the user has chosen their own. */}
        <PasswordGate required={user.mustChangePassword === true}>{children}</PasswordGate>
      </main>
      <SearchDialog />
    </div>
  );
}
