import { env } from "@/lib/env";

/** The address of a share page: on the deployment's public URL when it is set, else on the request's origin. */
export function shareUrl(req: Request, shareId: string): string {
  const origin = env.NEXTAUTH_URL ? new URL(env.NEXTAUTH_URL).origin : new URL(req.url).origin;
  return `${origin}/s/${shareId}`;
}
