import { describe, expect, it } from "vitest";
import { admission } from "./admission";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};

describe("admission", () => {
  it("admits requests in arrival order, one per turn of the event loop, with timers served in between", async () => {
    const order: string[] = [];
    const requests = [1, 2, 3].map(async (n) => {
      await admission();
      order.push(`request ${n}`);
      busy(3); // synchronous work, like a turn's SQLite transaction
    });
    setTimeout(() => order.push("timer"), 1);
    await Promise.all(requests);
    expect(order.filter((e) => e.startsWith("request"))).toEqual(["request 1", "request 2", "request 3"]);
    // The timer (a token of an open stream) did not wait for all three.
    expect(order.indexOf("timer")).toBeLessThan(order.indexOf("request 3"));
  });

  it("a lone request is admitted at once (on the next turn of the loop)", async () => {
    const started = performance.now();
    await admission();
    await admission();
    expect(performance.now() - started).toBeLessThan(50);
  });
});
