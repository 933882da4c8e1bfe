import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { parseTheme, THEME_COOKIE } from "@/components/theme/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Recall", template: "%s · Recall" },
  description: "Chat with memory you can inspect and delete.",
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "32x32" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
};

// The theme class comes from the cookie on the server: the first paint is already in the right colours, with no
// inline script (the CSP would refuse one without its nonce anyway).
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html
      lang="en"
      className={`${theme} ${GeistSans.variable} ${GeistMono.variable}`}
      suppressHydrationWarning
    >
      <body className="bg-zinc-50 font-sans text-zinc-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:shadow focus:outline-2 focus:outline-zinc-900"
        >
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
