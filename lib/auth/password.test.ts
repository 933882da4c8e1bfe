import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { HASH_SLOTS, hashPassword, needsRehash, verifyPassword, withHashSlot } from "./password";

describe("password hashing", () => {
  it("hashes with scrypt and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse", 10);
    expect(hash).toMatch(/^scrypt\$10\$8\$1\$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsf", hash)).toBe(false);
    expect(await hashPassword("correct horse", 10)).not.toBe(hash); // salted
  });

  it("still verifies bcrypt hashes from before, and marks them for an upgrade", async () => {
    const old = await bcrypt.hash("legacy-pass", 4);
    expect(await verifyPassword("legacy-pass", old)).toBe(true);
    expect(await verifyPassword("other", old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword("x"))).toBe(false);
  });

  it("rejects malformed hashes", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "scrypt$15$8")).toBe(false);
  });

  it("does not block the event loop while hashing at the production cost", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = performance.now();
    await Promise.all([hashPassword("a"), hashPassword("b")]);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // With hashing on the thread pool the interval keeps firing throughout.
    expect(ticks).toBeGreaterThan(Math.floor(elapsed / 5 / 3));
  });

  it("runs at most HASH_SLOTS hashes at once, first come first served, and frees a slot on failure", async () => {
    let now = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number, fail = false) =>
      withHashSlot(async () => {
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
        order.push(i);
        if (fail) throw new Error(`job ${i}`);
        return i;
      });
    const n = HASH_SLOTS * 3 + 1;
    const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => job(i, i === 0)));
    expect(peak).toBe(HASH_SLOTS);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(n - 1);
    // Queued jobs start in arrival order (they finish in it too: each takes the same time).
    expect(order.slice(HASH_SLOTS)).toEqual([...order.slice(HASH_SLOTS)].sort((a, b) => a - b));
    // Every slot came back: the next batch runs HASH_SLOTS at once again.
    peak = 0;
    await Promise.all(Array.from({ length: HASH_SLOTS * 2 }, (_, i) => job(100 + i)));
    expect(peak).toBe(HASH_SLOTS);
  });
});
