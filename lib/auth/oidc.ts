import type { OAuthConfig } from "next-auth/providers/oauth";
import type { OidcConfig } from "@/lib/env";

// The OpenID Connect provider of next-auth v4 built from OIDC_* (docs/decisions/035-oidc.md). No database here:
// which account a provider's user gets is decided in lib/auth/sso.ts.

/** next-auth's id of the provider: the callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

/** The claims Recall reads, from the ID token and the userinfo endpoint together. */
export interface OidcClaims {
  sub: string;
  iss?: string;
  email?: string;
  /** Some providers send the string "true". */
  email_verified?: boolean | string;
  name?: string;
  preferred_username?: string;
}

/** The provider for `config`, or null when single sign-on is not configured. */
export function oidcProvider(config: OidcConfig | null): OAuthConfig<OidcClaims> | null {
  if (!config) return null;
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    // The ID token is verified (signature, issuer, audience, nonce); PKCE and state bind the callback to the
    // browser that started the sign-in.
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    userinfo: {
      // A provider may keep email and email_verified out of the ID token when it also issues an access token
      // (OpenID Connect Core 5.4): read the userinfo endpoint too. openid-client checks that its `sub` is the ID
      // token's.
      async request({ client, tokens }) {
        // next-auth hands over openid-client's TokenSet; its types name only the parameters.
        const set = tokens as unknown as Parameters<typeof client.userinfo>[0] & {
          claims(): OidcClaims;
          access_token?: string;
        };
        const fromIdToken = set.claims();
        const info = set.access_token ? await client.userinfo(set) : {};
        return { ...fromIdToken, ...info, sub: fromIdToken.sub, iss: fromIdToken.iss };
      },
    },
    // The account is resolved by the signIn and jwt callbacks (lib/auth/options.ts); these fields are placeholders
    // next-auth requires.
    profile: (claims) => ({
      id: claims.sub,
      email: claims.email ?? null,
      name: claims.name ?? null,
      role: "USER",
    }),
  };
}
