import type { Metadata } from "next";
import { PasswordForm } from "@/components/settings/password-form";
import { getCurrentUser } from "@/lib/auth/session";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.password") };
}

/** Settings → Password; the chat layout has already required a signed-in user. */
export default async function PasswordPage() {
  const [t, user] = await Promise.all([getT("settings"), getCurrentUser()]);
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("password.title")}</h1>
      {user?.mustChangePassword && (
        <p
          role="alert"
          className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="password-required"
        >
          {t("password.required")}
        </p>
      )}
      <p className="mt-1 mb-6 text-sm text-zinc-600">{t("password.intro")}</p>
      <PasswordForm />
    </div>
  );
}
