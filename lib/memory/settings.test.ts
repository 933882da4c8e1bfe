import { describe, expect, it } from "vitest";
import { type MemorySettings, resolveMemorySettings, validateMemorySettings } from "./settings";
import { conversation, labels } from "./test-fixtures";

const defaults: MemorySettings = {
  enabled: true,
  policy: "window",
  maxMessages: 20,
  maxTokens: 4000,
  recall: "conversation",
  recallMaxTokens: 2000,
};
const count = () => 10;

describe("validateMemorySettings", () => {
  it.each([
    [{}, {}],
    [{ enabled: false }, { enabled: false }],
    [
      { policy: "tokens", maxTokens: 100 },
      { policy: "tokens", maxTokens: 100 },
    ],
    [{ maxMessages: 1 }, { maxMessages: 1 }],
    [
      { maxMessages: 10_000, maxTokens: 1_000_000 },
      { maxMessages: 10_000, maxTokens: 1_000_000 },
    ],
    [{ policy: "summary" }, { policy: "summary" }],
    [{ recall: "off" }, { recall: "off" }],
    [
      { recall: "all", recallMaxTokens: 100 },
      { recall: "all", recallMaxTokens: 100 },
    ],
    [{ recallMaxTokens: 32_000 }, { recallMaxTokens: 32_000 }],
  ])("accepts %j", (input, value) => {
    expect(validateMemorySettings(input)).toEqual({ ok: true, value });
  });

  it.each([
    [{ maxMessages: 0 }, "maxMessages"],
    [{ maxMessages: 10_001 }, "maxMessages"],
    [{ maxMessages: 2.5 }, "maxMessages"],
    [{ maxMessages: "20" }, "maxMessages"],
    [{ maxTokens: 99 }, "maxTokens"],
    [{ maxTokens: 1_000_001 }, "maxTokens"],
    [{ maxTokens: null }, "maxTokens"],
    [{ enabled: "yes" }, "enabled"],
    [{ policy: "facts" }, "policy"],
    [{ recall: "everything" }, "recall"],
    [{ recall: true }, "recall"],
    [{ recallMaxTokens: 99 }, "recallMaxTokens"],
    [{ recallMaxTokens: 32_001 }, "recallMaxTokens"],
    [{ recallMaxTokens: 500.5 }, "recallMaxTokens"],
    [{ maxMesages: 3 }, "settings"],
    [null, "settings"],
    [[1], "settings"],
  ])("rejects %j on %s", (input, field) => {
    const result = validateMemorySettings(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
  });

  it("reports every error at once", () => {
    const result = validateMemorySettings({ maxMessages: 0, maxTokens: 5, policy: "x" });
    expect(result.ok ? [] : result.errors.map((e) => e.field)).toEqual([
      "policy",
      "maxMessages",
      "maxTokens",
    ]);
  });
});

describe("resolveMemorySettings", () => {
  const items = conversation("S u1 a2 u3 a4 u5 a6");

  it("no stored settings → the defaults, a window of maxMessages", () => {
    const resolved = resolveMemorySettings(null, defaults, count);
    expect(resolved.settings).toEqual(defaults);
    expect(resolved.policy.id).toBe("window:20");
    expect(resolved.contextMaxTokens).toBeUndefined();
  });

  it("stored fields override the defaults one by one", () => {
    const resolved = resolveMemorySettings({ maxMessages: 2 }, defaults, count);
    expect(resolved.settings).toEqual({ ...defaults, maxMessages: 2 });
    expect(labels(resolved.policy.apply(items))).toBe("S u5 a6");
  });

  it("tokens → the token window composed with the message window, and the context budget", () => {
    const resolved = resolveMemorySettings(
      { policy: "tokens", maxTokens: 130, maxMessages: 3 },
      defaults,
      count,
    );
    expect(resolved.policy.id).toBe("tokens:130+window:3");
    expect(resolved.contextMaxTokens).toBe(130);
    expect(labels(resolved.policy.apply(items))).toBe("S a4 u5 a6");
    const tight = resolveMemorySettings(
      { policy: "tokens", maxTokens: 100 },
      { ...defaults, maxMessages: 3 },
      () => 40,
    );
    expect(labels(tight.policy.apply(items))).toBe("S a6");
  });

  it("summary → the summary policy with keepRecent = maxMessages, trigger = 2 × maxMessages", () => {
    const resolved = resolveMemorySettings({ policy: "summary", maxMessages: 4 }, defaults, count);
    expect(resolved.policy.id).toBe("summary:4/8");
    expect(resolved.contextMaxTokens).toBeUndefined();
  });

  it("disabled → none, whatever the policy", () => {
    const resolved = resolveMemorySettings({ enabled: false, policy: "tokens" }, defaults, count);
    expect(resolved.policy.id).toBe("none");
    expect(labels(resolved.policy.apply(items))).toBe("S");
    expect(resolved.contextMaxTokens).toBeUndefined();
  });

  it("recall: the scope and its limit, null when off or when memory is disabled", () => {
    expect(resolveMemorySettings(null, defaults, count).recall).toEqual({
      scope: "conversation",
      maxTokens: 2000,
    });
    expect(resolveMemorySettings({ recall: "all", recallMaxTokens: 500 }, defaults, count).recall).toEqual({
      scope: "all",
      maxTokens: 500,
    });
    expect(resolveMemorySettings({ recall: "off" }, defaults, count).recall).toBeNull();
    expect(resolveMemorySettings({ enabled: false }, defaults, count).recall).toBeNull();
    // Recall is not part of the snapshot policy: switching it does not make snapshots stale.
    expect(resolveMemorySettings({ recall: "off" }, defaults, count).policy.id).toBe("window:20");
  });

  it("an invalid stored field falls back to its default instead of failing the turn", () => {
    const stored = { maxMessages: 0, policy: "facts", maxTokens: 500 } as unknown as Partial<MemorySettings>;
    const resolved = resolveMemorySettings(stored, defaults, count);
    expect(resolved.settings).toEqual({ ...defaults, maxTokens: 500 });
  });

  it("rejects invalid defaults (a configuration error)", () => {
    expect(() => resolveMemorySettings(null, { ...defaults, maxTokens: 50 }, count)).toThrow(RangeError);
  });
});
