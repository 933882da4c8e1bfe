import type { Metadata } from "next";
import Link from "next/link";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.settings") };
}

const SECTIONS = [
  { href: "/settings/password", key: "password" },
  { href: "/settings/keys", key: "keys" },
  { href: "/settings/data", key: "data" },
] as const;

/** Settings: an index of the settings pages; the chat layout has already required a signed-in user. */
export default async function SettingsPage() {
  const t = await getT("settings");
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("index.title")}</h1>
      <ul className="mt-6 space-y-3">
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
    </div>
  );
}
