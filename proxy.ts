import { withAuth } from "next-auth/middleware";
import { env } from "@/lib/env";

// Pages only: API routes answer 401 JSON themselves (lib/http.ts) instead of redirecting.
export const proxy = withAuth({ secret: env.AUTH_SECRET, pages: { signIn: "/login" } });

export const config = {
  matcher: ["/((?!api|login|register|_next/|favicon.ico|.*\\.(?:svg|png|ico|txt)$).*)"],
};
