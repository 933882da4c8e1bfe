import { describe, expect, it } from "vitest";
import { envIssues, parseTestEnv as parse } from "@/test/env";

describe("security settings", () => {
  it("defaults: 1 MB bodies, open sign-up, 10 failures per account, 60 turns a minute, no quota", () => {
    const env = parse({});
    expect(env.QUOTA_MESSAGES_PER_DAY).toBeUndefined();
    expect(env).toMatchObject({
      MAX_BODY_BYTES: 1024 * 1024,
      ALLOWED_ORIGINS: [],
      REGISTRATION: "open",
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: 10,
      RATE_LIMIT_SIGNIN_FAILURES_PER_IP: 100,
      RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: 10,
      RATE_LIMIT_TURNS_PER_MINUTE: 60,
      TRUSTED_PROXY_HOPS: 0,
    });
  });

  it("reads each one", () => {
    expect(
      parse({
        MAX_BODY_BYTES: "2048",
        ALLOWED_ORIGINS: "https://chat.example.com/, http://127.0.0.1:3000",
        REGISTRATION: "invite",
        RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: "3",
        RATE_LIMIT_SIGNIN_FAILURES_PER_IP: "7",
        RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: "2",
        RATE_LIMIT_TURNS_PER_MINUTE: "5",
        QUOTA_MESSAGES_PER_DAY: "100",
        TRUSTED_PROXY_HOPS: "1",
      }),
    ).toMatchObject({
      MAX_BODY_BYTES: 2048,
      ALLOWED_ORIGINS: ["https://chat.example.com", "http://127.0.0.1:3000"],
      REGISTRATION: "invite",
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: 3,
      RATE_LIMIT_SIGNIN_FAILURES_PER_IP: 7,
      RATE_LIMIT_REGISTRATIONS_PER_IP_PER_HOUR: 2,
      RATE_LIMIT_TURNS_PER_MINUTE: 5,
      QUOTA_MESSAGES_PER_DAY: 100,
      TRUSTED_PROXY_HOPS: 1,
    });
  });

  it("names bad values", () => {
    const issues = envIssues({ REGISTRATION: "maybe", ALLOWED_ORIGINS: "not a url", MAX_BODY_BYTES: "0" });
    expect(issues.join("\n")).toMatch(/REGISTRATION/);
    expect(issues.join("\n")).toMatch(/ALLOWED_ORIGINS/);
    expect(issues.join("\n")).toMatch(/MAX_BODY_BYTES/);
  });
});
