import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { InstructionsForm } from "@/components/instructions/instructions-form";
import { getCurrentUser } from "@/lib/auth/session";
import { getUserInstructions } from "@/lib/db/instructions";
import { getT } from "@/lib/i18n/server";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.instructions") };
}

/** Settings → Instructions: the signed-in user's "About me" and "How to answer" (GET/PATCH /api/me/instructions). */
export default async function InstructionsPage() {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  const [t, instructions] = await Promise.all([
    getT("instructions"),
    getUserInstructions({ userId: user.id }),
  ]);
  return (
    <div className="mx-auto w-full max-w-2xl overflow-y-auto p-6">
      <h1 className="text-xl font-semibold">{t("title")}</h1>
      <p className="mt-1 mb-6 text-sm text-zinc-600">{t("intro")}</p>
      <InstructionsForm initial={instructions} />
    </div>
  );
}
