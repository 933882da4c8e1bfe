import type { Role } from "@/lib/types";

/** Who a sign-in (password or single sign-on) hands to next-auth: the fields its token is made from. */
export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  tokenVersion: number;
}

/** Only those fields of a user row (never its password hash or anything else it was read with). */
export const signedInUser = (user: SignedInUser): SignedInUser => ({
  id: user.id,
  email: user.email,
  name: user.name,
  role: user.role,
  tokenVersion: user.tokenVersion,
});
