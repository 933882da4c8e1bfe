import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { DeleteAccount } from "@/components/settings/delete-account";
import { ProfileForm } from "@/components/settings/profile-form";
import { getCurrentUser } from "@/lib/auth/session";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.settings") };
}

const SECTIONS = [
  { href: "/settings/password", key: "password" },
  { href: "/settings/instructions", key: "instructions" },
  { href: "/settings/usage", key: "usage" },
  { href: "/settings/keys", key: "keys" },
  { href: "/settings/shared", key: "shared" },
  { href: "/settings/data", key: "data" },
] as const;

/**
 * Settings: the profile, an index of the other settings pages, and deleting the account. Language and theme are
 * the switches at the foot of the sidebar, on every page.
 */
export default async function SettingsPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  const t = await getT("settings");
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("index.title")}</h1>
      <section aria-labelledby="profile-title" className="mt-6">
        <h2 id="profile-title" className="mb-3 text-lg font-medium">
          {t("profile.title")}
        </h2>
        <ProfileForm user={{ name: user.name, email: user.email }} />
      </section>
      <ul className="mt-8 space-y-3">
        {SECTIONS.map(({ href, key }) => (
          <li key={href}>
            <Link
              href={href}
              className="block rounded-md border border-zinc-200 p-4 hover:bg-zinc-50"
              data-testid={`settings-${key}`}
            >
              <span className="font-medium text-zinc-900">{t(`index.${key}.title`)}</span>
              <span className="mt-1 block text-sm text-zinc-600">{t(`index.${key}.body`)}</span>
            </Link>
          </li>
        ))}
      </ul>
      <section aria-labelledby="delete-account-title" className="mt-8 rounded-md border border-red-200 p-4">
        <h2 id="delete-account-title" className="mb-2 text-lg font-medium text-red-800">
          {t("deleteAccount.title")}
        </h2>
        <DeleteAccount />
      </section>
    </div>
  );
}
