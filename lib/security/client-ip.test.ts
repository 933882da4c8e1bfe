import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

const h = (xff?: string) => new Headers(xff ? { "x-forwarded-for": xff } : {});

describe("clientIp", () => {
  it("takes the address next start recorded (the only entry) without a proxy", () => {
    expect(clientIp(h("10.0.0.5"), 0)).toBe("10.0.0.5");
  });
  it("behind N trusted proxies, takes the entry the outermost one appended, ignoring what the client sent", () => {
    expect(clientIp(h("6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientIp(h("6.6.6.6, 203.0.113.9, 10.0.0.2"), 2)).toBe("203.0.113.9");
  });
  it("has a key even without the header", () => {
    expect(clientIp(h(), 0)).toBe("unknown");
  });
});
