import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { unsafeGetUserCredentialsByEmail } from "@/lib/db/users";
import { env } from "@/lib/env";
import { hashPassword, verifyPassword } from "./password";
import { credentialsSchema } from "./schemas";

// Error strings the login page turns into messages; never the password, never which part was wrong.
export const SIGNIN_ERRORS = {
  invalid: "invalid_credentials",
  disabled: "account_disabled",
} as const;

let dummyHash: Promise<string> | undefined;
const unknownUserHash = () => {
  dummyHash ??= hashPassword(randomUUID());
  return dummyHash;
};

export const authOptions: NextAuthOptions = {
  secret: env.AUTH_SECRET,
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: "/login" },
  logger: {
    // next-auth logs failed credentials at error level with the thrown message; that is expected traffic.
    error(code, metadata) {
      if (code === "CREDENTIALS_SIGNIN_ERROR" || code === "CLIENT_FETCH_ERROR") return;
      console.error(`[auth] ${code}`, metadata instanceof Error ? metadata.message : "");
    },
    warn() {},
    debug() {},
  },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw) {
        const parsed = credentialsSchema.safeParse(raw);
        if (!parsed.success) throw new Error(SIGNIN_ERRORS.invalid);
        const user = await unsafeGetUserCredentialsByEmail({ email: parsed.data.email });
        // Compare against a throwaway hash when the user is unknown so both paths cost the same.
        const ok = await verifyPassword(
          parsed.data.password,
          user?.passwordHash ?? (await unknownUserHash()),
        );
        if (!user || !ok) throw new Error(SIGNIN_ERRORS.invalid);
        if (user.disabledAt) throw new Error(SIGNIN_ERRORS.disabled);
        return { id: user.id, email: user.email, name: user.name, role: user.role };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.role = user.role;
      }
      return token;
    },
    async session({ session, token }) {
      if (token.uid) session.user = { ...session.user, id: token.uid, role: token.role ?? "USER" };
      return session;
    },
  },
};
