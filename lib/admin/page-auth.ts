import "server-only";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { type CurrentUser, getCurrentUser } from "@/lib/auth/session";

/**
 * The signed-in admin for an admin page, or the same 404 as a missing page (anonymous visitors go to the login).
 * Next.js renders a layout and its page in parallel, so the layout's check alone does not keep a page's queries
 * from running: every admin page calls this too. Cached per request, so the user is read once.
 */
export const requireAdminPage = cache(async (): Promise<CurrentUser> => {
  const user = await getCurrentUser();
  if (!user) redirect("/login?callbackUrl=/admin");
  if (user.role !== "ADMIN") notFound();
  if (user.mustChangePassword) redirect("/settings/password"); // a reset password is changed first
  return user;
});
