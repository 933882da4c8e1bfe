import { describe, expect, it } from "vitest";
import { ConnectionGate } from "./connection-gate";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("ConnectionGate", () => {
  it("runs a statement at once while nothing holds it", async () => {
    const gate = new ConnectionGate();
    const order: string[] = [];
    const ran = gate.run(undefined, async () => {
      order.push("statement");
    });
    order.push("after the call");
    await ran;
    // The statement started inside the call: the driver runs it before anything else can take the connection.
    expect(order).toEqual(["statement", "after the call"]);
    expect(gate.held).toBe(false);
  });

  it("makes statements wait for the transaction that holds it, then runs them in order", async () => {
    const gate = new ConnectionGate();
    const scope = {};
    await gate.enter(scope);
    const order: string[] = [];
    const a = gate.run(undefined, async () => void order.push("a"));
    const b = gate.run({}, async () => void order.push("b (another transaction's scope)"));
    await tick();
    expect(order).toEqual([]);
    gate.leave();
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "b (another transaction's scope)"]);
    expect(gate.held).toBe(false);
  });

  it("lets the holding transaction's own statements through", async () => {
    const gate = new ConnectionGate();
    const scope = {};
    await gate.enter(scope);
    let ran = false;
    await gate.run(scope, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(gate.held).toBe(true);
    gate.leave();
  });

  it("hands the gate to the next in line, so a newcomer cannot step in before it", async () => {
    const gate = new ConnectionGate();
    await gate.enter({});
    const order: string[] = [];
    const second = gate.enter({}).then(() => order.push("second transaction"));
    gate.leave();
    // Taken for the waiter at once: a statement arriving now waits behind it.
    expect(gate.held).toBe(true);
    const late = gate.run(undefined, async () => void order.push("late statement"));
    await second;
    await tick();
    expect(order).toEqual(["second transaction"]);
    gate.leave();
    await late;
    expect(order).toEqual(["second transaction", "late statement"]);
  });

  it("releases the gate when a waiting statement fails", async () => {
    const gate = new ConnectionGate();
    await gate.enter({});
    const failing = gate.run(undefined, async () => {
      throw new Error("SQLITE_ERROR");
    });
    gate.leave();
    await expect(failing).rejects.toThrow("SQLITE_ERROR");
    expect(gate.held).toBe(false);
  });
});
