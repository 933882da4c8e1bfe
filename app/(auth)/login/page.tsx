import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { LoginForm } from "@/components/auth/login-form";
import { SsoSignIn } from "@/components/auth/sso-sign-in";
import { getCurrentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata() {
  return { title: (await getT("auth"))("signIn.title") };
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ callbackUrl?: string; error?: string }>;
}) {
  if (await getCurrentUser()) redirect("/");
  const { callbackUrl, error } = await searchParams;
  const t = await getT("auth");
  return (
    <AuthCard title={t("signIn.title")}>
      <LoginForm callbackUrl={callbackUrl ?? null} errorCode={typeof error === "string" ? error : null} />
      {env.oidc ? <SsoSignIn name={env.oidc.name} callbackUrl={callbackUrl ?? null} /> : null}
    </AuthCard>
  );
}
