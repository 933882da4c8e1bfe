import { notFound } from "next/navigation";
import { SessionReview } from "@/components/admin/session-review";
import { type SessionReviewView, toView } from "@/components/admin/types";
import { requireAdminPage } from "@/lib/admin/page-auth";
import { getSessionReview } from "@/lib/admin/session-review";
import { isAppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export default async function AdminSessionPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdminPage();
  const { id } = await params;
  const review = await getSessionReview({ sessionId: id, limit: 100 }).catch((e: unknown) => {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  });
  return <SessionReview key={id} review={toView<SessionReviewView>(review)} />;
}
