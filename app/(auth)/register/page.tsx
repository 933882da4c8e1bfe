import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/auth-card";
import { RegisterForm } from "@/components/auth/register-form";
import { getCurrentUser } from "@/lib/auth/session";

export const metadata = { title: "Create account · Recall" };

export default async function RegisterPage() {
  if (await getCurrentUser()) redirect("/");
  return (
    <AuthCard title="Create your account">
      <RegisterForm />
    </AuthCard>
  );
}
