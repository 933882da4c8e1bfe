import type { DefaultSession } from "next-auth";
import type { Role } from "@/lib/types";

declare module "next-auth" {
  interface Session {
    user: { id: string; role: Role } & DefaultSession["user"];
  }
  interface User {
    role: Role;
    tokenVersion?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    role?: Role;
    /** User.tokenVersion at sign-in; see lib/auth/session.ts. */
    ver?: number;
    /** This sign-in's id, revoked alone at sign-out; see lib/auth/session-token.ts. */
    sid?: string;
  }
}
