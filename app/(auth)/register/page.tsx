import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { RegisterForm } from "@/components/auth/register-form";
import { SsoSignIn } from "@/components/auth/sso-sign-in";
import { getCurrentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { getT } from "@/lib/i18n/server";

export async function generateMetadata() {
  return { title: (await getT("auth"))("register.pageTitle") };
}

export default async function RegisterPage() {
  if (await getCurrentUser()) redirect("/");
  const t = await getT("auth");
  return (
    <AuthCard title={t("register.title")}>
      {env.REGISTRATION === "closed" ? (
        <p className="text-sm text-zinc-700" data-testid="registration-closed">
          {t("register.closed")}
        </p>
      ) : (
        <RegisterForm needsInvite={env.REGISTRATION === "invite"} />
      )}
      {/* As on /login: the provider signs in an existing account, or creates one where registration is open. */}
      {env.oidc ? <SsoSignIn name={env.oidc.name} callbackUrl={null} /> : null}
    </AuthCard>
  );
}
