import { afterEach, describe, expect, it, vi } from "vitest";
import { type HeartbeatLease, type HeartbeatStore, Heartbeats } from "./heartbeats";

const keyOf = (l: HeartbeatLease) => `${l.sessionId} ${l.leaseId}`;

/** A store that renews the leases in `held` and records every call. */
function fakeStore(held: Set<string>) {
  const calls: { renew: HeartbeatLease[][]; saved: { answerId: string; text: string }[][] } = {
    renew: [],
    saved: [],
  };
  const store: HeartbeatStore = {
    keyOf,
    async renewLeases(leases) {
      calls.renew.push([...leases]);
      return new Set(leases.map(keyOf).filter((k) => held.has(k)));
    },
    async saveAnswerDrafts(drafts) {
      calls.saved.push([...drafts]);
    },
  };
  return { store, calls };
}

const entry = (n: number, onLeaseLost = () => {}) => ({
  lease: { sessionId: `s${n}`, leaseId: `l${n}` },
  answerId: `a${n}`,
  leaseSeconds: 30,
  draft: { text: "" },
  onLeaseLost,
});

afterEach(() => vi.useRealTimers());

describe("Heartbeats", () => {
  it("renews every live lease in one call and saves only the drafts that changed, in one call", async () => {
    const { store, calls } = fakeStore(new Set(["s1 l1", "s2 l2", "s3 l3"]));
    const beats = new Heartbeats(store, 1000);
    const [e1, e2, e3] = [entry(1), entry(2), entry(3)];
    for (const e of [e1, e2, e3]) beats.add(e);
    e1.draft.text = "Hello";
    e3.draft.text = "Hi";
    await beats.beat();
    expect(calls.renew).toEqual([[e1.lease, e2.lease, e3.lease]]);
    expect(calls.saved).toEqual([
      [
        { answerId: "a1", text: "Hello" },
        { answerId: "a3", text: "Hi" },
      ],
    ]);
    // Nothing new written: the next beat renews the leases and saves nothing.
    await beats.beat();
    expect(calls.renew).toHaveLength(2);
    expect(calls.saved).toHaveLength(1);
    e3.draft.text = "Hi there";
    await beats.beat();
    expect(calls.saved[1]).toEqual([{ answerId: "a3", text: "Hi there" }]);
  });

  it("a lease not renewed is reported once, its entry dropped and its draft not saved", async () => {
    const { store, calls } = fakeStore(new Set(["s1 l1"]));
    const beats = new Heartbeats(store, 1000);
    const lost = vi.fn();
    beats.add({ ...entry(1), draft: { text: "kept" } });
    beats.add({ ...entry(2, lost), draft: { text: "not saved" } });
    await beats.beat();
    expect(lost).toHaveBeenCalledTimes(1);
    expect(calls.saved).toEqual([[{ answerId: "a1", text: "kept" }]]);
    expect(beats.size).toBe(1);
    await beats.beat();
    expect(lost).toHaveBeenCalledTimes(1);
    expect(calls.renew[1]).toEqual([{ sessionId: "s1", leaseId: "l1" }]);
  });

  it("a stopped entry is neither renewed nor reported lost, even when it stops during a beat", async () => {
    let release: () => void = () => {};
    const held = new Set<string>();
    const { store } = fakeStore(held);
    const slow: HeartbeatStore = {
      ...store,
      renewLeases: (leases, s) => new Promise((r) => (release = () => r(store.renewLeases(leases, s)))),
    };
    const beats = new Heartbeats(slow, 1000);
    const lost = vi.fn();
    const hb = beats.add(entry(1, lost));
    const beat = beats.beat();
    hb.stop(); // the turn committed (and released its lease) while the beat was on its way
    release();
    await beat;
    expect(lost).not.toHaveBeenCalled();
    expect(beats.size).toBe(0);
  });

  it("leases of different lengths are renewed in one call per length", async () => {
    const { store, calls } = fakeStore(new Set(["s1 l1", "s2 l2"]));
    const renew = vi.spyOn(store, "renewLeases");
    const beats = new Heartbeats(store, 1000);
    beats.add(entry(1));
    beats.add({ ...entry(2), leaseSeconds: 5 });
    await beats.beat();
    expect(renew.mock.calls.map((c) => c[1])).toEqual([30, 5]);
    expect(calls.renew).toEqual([[{ sessionId: "s1", leaseId: "l1" }], [{ sessionId: "s2", leaseId: "l2" }]]);
  });

  it("a storage error is logged and the next beat tries again; beats never overlap", async () => {
    const { store } = fakeStore(new Set(["s1 l1"]));
    let fail = true;
    let inFlight = 0;
    let maxInFlight = 0;
    const flaky: HeartbeatStore = {
      ...store,
      async renewLeases(leases, s) {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        if (fail) throw new Error("database is locked");
        return store.renewLeases(leases, s);
      },
    };
    const warn = vi.fn();
    const beats = new Heartbeats(flaky, 1000, warn);
    const lost = vi.fn();
    beats.add(entry(1, lost));
    await Promise.all([beats.beat(), beats.beat()]);
    expect(maxInFlight).toBe(1);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/heartbeat of 1 streaming answer.*database is locked/),
    );
    fail = false;
    await beats.beat();
    expect(lost).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("runs one timer while anything is live, and none after the last entry stops", async () => {
    vi.useFakeTimers();
    const { store, calls } = fakeStore(new Set(["s1 l1", "s2 l2"]));
    const beats = new Heartbeats(store, 1000);
    const a = beats.add(entry(1));
    const b = beats.add(entry(2));
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls.renew).toHaveLength(2);
    a.stop();
    expect(vi.getTimerCount()).toBe(1);
    b.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls.renew).toHaveLength(2);
  });
});
