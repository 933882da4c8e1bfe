import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { parseTheme, THEME_COOKIE } from "@/components/theme/theme";
import { HydratedMark } from "@/components/ui/hydrated-mark";
import { I18nProvider } from "@/lib/i18n/client";
import { getLocale, getMessages, getT } from "@/lib/i18n/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT("pages");
  return {
    title: { default: "Recall", template: "%s · Recall" },
    description: t("meta.description"),
    icons,
  };
}

const icons: Metadata["icons"] = {
  icon: [
    { url: "/favicon.ico", sizes: "32x32" },
    { url: "/icon.svg", type: "image/svg+xml" },
  ],
  apple: "/apple-touch-icon.png",
};

// The theme class comes from the cookie on the server: the first paint is already in the right colours, with no
// inline script (the CSP would refuse one without its nonce anyway).
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  const [locale, messages, t] = await Promise.all([getLocale(), getMessages(), getT("common")]);
  return (
    <html
      lang={locale}
      className={`${theme} ${GeistSans.variable} ${GeistMono.variable}`}
      suppressHydrationWarning
    >
      <body className="bg-zinc-50 font-sans text-zinc-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow focus:outline-2 focus:outline-zinc-900"
        >
          {t("skipToContent")}
        </a>
        <I18nProvider locale={locale} messages={messages}>
          {children}
        </I18nProvider>
        <HydratedMark />
      </body>
    </html>
  );
}
