import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { RegisterForm } from "@/components/auth/register-form";
import { getCurrentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";

export const metadata = { title: "Create account" };

export default async function RegisterPage() {
  if (await getCurrentUser()) redirect("/");
  return (
    <AuthCard title="Create your account">
      {env.REGISTRATION === "closed" ? (
        <p className="text-sm text-zinc-700" data-testid="registration-closed">
          Sign-up is closed on this server. Ask an administrator for an account.
        </p>
      ) : (
        <RegisterForm needsInvite={env.REGISTRATION === "invite"} />
      )}
    </AuthCard>
  );
}
