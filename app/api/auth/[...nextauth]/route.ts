import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { env } from "@/lib/env";
import { errorResponse, readBodyText } from "@/lib/http";
import { limits } from "@/lib/rate-limit";
import { clientIp } from "@/lib/security/client-ip";

// next-auth's own endpoints keep their CSRF token (no route() wrapper). In front of them: the body limit, and
// the sign-in limits answered as 429 before a password is hashed. The 429 body also carries next-auth's `url`
// (with ?error=rate_limited) so next-auth/react's signIn() reports it like any other sign-in error.

const handler = NextAuth(authOptions);
type Ctx = { params: Promise<{ nextauth: string[] }> };

async function post(req: NextRequest, ctx: Ctx): Promise<Response> {
  let text: string;
  try {
    text = await readBodyText(req);
  } catch (e) {
    return errorResponse(e);
  }
  const { nextauth } = await ctx.params;
  if (nextauth?.[0] === "callback" && nextauth[1] === "credentials") {
    const email = new URLSearchParams(text).get("email") ?? "";
    try {
      await limits().assertSignInAllowed({ email, ip: clientIp(req.headers, env.TRUSTED_PROXY_HOPS) });
    } catch (e) {
      const res = errorResponse(e);
      if (res.status !== 429) return res;
      const body = (await res.json()) as Record<string, unknown>;
      const url = new URL("/login?error=rate_limited", req.nextUrl.origin).toString();
      return Response.json({ ...body, url }, { status: 429, headers: res.headers });
    }
  }
  const copy = new NextRequest(req.url, { method: req.method, headers: req.headers, body: text });
  return handler(copy, ctx);
}

export { handler as GET, post as POST };
