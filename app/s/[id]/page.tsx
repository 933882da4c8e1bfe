import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedMessage } from "@/components/share/shared-message";
import { getPublicShare } from "@/lib/db/shares";
import { getLocale, getT } from "@/lib/i18n/server";

// A shared conversation, for anyone with the link (proxy.ts lets /s/ through signed out). Read on every request, so
// a revoked link is a 404 at once; never indexed (this metadata, and X-Robots-Tag from next.config.ts).

type Props = { params: Promise<{ id: string }> };

const SHARE_ID = /^[A-Za-z0-9_-]{16,64}$/;

async function load(id: string) {
  return SHARE_ID.test(id) ? getPublicShare({ shareId: id }) : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const share = await load((await params).id);
  const t = await getT("share");
  return {
    title: share?.title ?? t("page.missing"),
    robots: { index: false, follow: false, nocache: true },
    referrer: "no-referrer",
  };
}

export default async function SharedPage({ params }: Props) {
  const share = await load((await params).id);
  if (!share) notFound();
  const [t, locale] = await Promise.all([getT("share"), getLocale()]);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(
    share.createdAt,
  );
  return (
    <main id="main" tabIndex={-1} className="mx-auto w-full max-w-3xl p-4 sm:p-6">
      <header className="mb-6 border-b border-zinc-200 pb-4">
        <h1 className="text-xl font-semibold [overflow-wrap:anywhere]" data-testid="share-title">
          {share.title}
        </h1>
        <p className="mt-1 text-sm text-zinc-600" data-testid="share-note">
          {t("page.note", { date })}
        </p>
      </header>
      <ol className="space-y-4" aria-label={t("page.messages")}>
        {share.messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a snapshot never changes order
          <SharedMessage key={i} role={m.role} text={m.text} />
        ))}
      </ol>
    </main>
  );
}
