import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { getCurrentUser } from "@/lib/auth/session";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata() {
  return { title: (await getT("auth"))("signIn.title") };
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string }>;
}) {
  if (await getCurrentUser()) redirect("/");
  const { callbackUrl } = await searchParams;
  const t = await getT("auth");
  return (
    <AuthCard title={t("signIn.title")}>
      <LoginForm callbackUrl={callbackUrl ?? null} />
    </AuthCard>
  );
}
