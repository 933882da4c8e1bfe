import { describe, expect, it } from "vitest";
import { envIssues as issuesOf, parseTestEnv as parse } from "@/test/env";
import { OIDC_PROVIDER_ID, oidcProvider } from "./oidc";

// OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (and OIDC_NAME): the provider exists only when all three are set;
// a partial setup, a bad issuer or a missing NEXTAUTH_URL stops the server at start with the variable named.

const FULL = {
  OIDC_ISSUER: "https://id.example.com/realms/staff/",
  OIDC_CLIENT_ID: "recall",
  OIDC_CLIENT_SECRET: "s3cret",
  NEXTAUTH_URL: "https://chat.example.com",
};

describe("OIDC_* settings", () => {
  it("without them there is no provider (password sign-in only)", () => {
    const env = parse({});
    expect(env.oidc).toBeNull();
    expect(oidcProvider(env.oidc)).toBeNull();
  });

  it("with all three: an OpenID Connect provider discovered from the issuer, named by OIDC_NAME (default SSO)", () => {
    const env = parse(FULL);
    expect(env.oidc).toEqual({
      issuer: FULL.OIDC_ISSUER,
      clientId: "recall",
      clientSecret: "s3cret",
      name: "SSO",
    });
    const provider = oidcProvider(env.oidc);
    expect(provider).toMatchObject({
      id: OIDC_PROVIDER_ID,
      type: "oauth",
      name: "SSO",
      wellKnown: "https://id.example.com/realms/staff/.well-known/openid-configuration",
      clientId: "recall",
      clientSecret: "s3cret",
      idToken: true,
      checks: ["pkce", "state", "nonce"],
      authorization: { params: { scope: "openid email profile" } },
    });
    expect(oidcProvider(parse({ ...FULL, OIDC_NAME: "Keycloak" }).oidc)?.name).toBe("Keycloak");
  });

  it.each([
    [{ OIDC_ISSUER: FULL.OIDC_ISSUER }, ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]],
    [{ OIDC_ISSUER: FULL.OIDC_ISSUER, OIDC_CLIENT_ID: "recall" }, ["OIDC_CLIENT_SECRET"]],
    [{ OIDC_CLIENT_ID: "recall", OIDC_CLIENT_SECRET: "s" }, ["OIDC_ISSUER"]],
  ])("a partial setup %j is a startup error naming what is missing", (vars, missing) => {
    const issues = issuesOf({ NEXTAUTH_URL: FULL.NEXTAUTH_URL, ...vars });
    expect(issues.map((i) => i.split(":")[0])).toEqual(missing);
    expect(issues.join("\n")).toMatch(/single sign-on needs all three/);
  });

  it("the issuer must be an http(s) URL", () => {
    expect(issuesOf({ ...FULL, OIDC_ISSUER: "id.example.com" })).toEqual([
      "OIDC_ISSUER: must be an http(s) URL (the provider's issuer)",
    ]);
    expect(issuesOf({ ...FULL, OIDC_ISSUER: "ftp://id.example.com" })[0]).toMatch(/^OIDC_ISSUER:/);
  });

  it("needs NEXTAUTH_URL (the callback address), or AUTH_TRUST_HOST behind a proxy", () => {
    const { NEXTAUTH_URL: _, ...withoutUrl } = FULL;
    expect(issuesOf(withoutUrl)).toEqual([
      expect.stringMatching(/^NEXTAUTH_URL: must be set with OIDC_ISSUER .*\/api\/auth\/callback\/oidc/),
    ]);
    expect(parse({ ...withoutUrl, AUTH_TRUST_HOST: "true" }).oidc?.issuer).toBe(FULL.OIDC_ISSUER);
  });

  it("empty values count as unset, like every setting", () => {
    expect(parse({ OIDC_ISSUER: "", OIDC_CLIENT_ID: "", OIDC_CLIENT_SECRET: "" }).oidc).toBeNull();
  });
});
