import type { SqlDriverAdapter, SqlQuery } from "@prisma/driver-adapter-utils";
import { describe, expect, it } from "vitest";
import { ConnectionGate, gatedAdapter, transactionScope } from "./connection-gate";

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

  it("is taken by hold even while free, until its asynchronous work ends", async () => {
    const gate = new ConnectionGate();
    const order: string[] = [];
    let finish = () => {};
    const held = gate.hold(() => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    expect(gate.held).toBe(true);
    const statement = gate.run(undefined, async () => void order.push("statement"));
    const transaction = gate.enter({}).then(() => order.push("transaction"));
    await tick();
    expect(order).toEqual([]);
    finish();
    await held;
    await statement;
    await transaction;
    expect(order).toEqual(["statement", "transaction"]);
    gate.leave();
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

/** An adapter that records the statements it runs (and runs transactions that record theirs). */
function fakeAdapter(name: string, log: string[]): SqlDriverAdapter {
  const result = { columnNames: [], columnTypes: [], rows: [] };
  return {
    provider: "sqlite",
    adapterName: name,
    queryRaw: async (q: SqlQuery) => {
      log.push(`${name}: ${q.sql}`);
      return result;
    },
    executeRaw: async (q: SqlQuery) => {
      log.push(`${name}: ${q.sql}`);
      return 0;
    },
    executeScript: async () => {},
    dispose: async () => {},
    startTransaction: async () => ({
      provider: "sqlite",
      adapterName: name,
      options: { usePhantomQuery: false },
      queryRaw: async (q: SqlQuery) => {
        log.push(`${name} tx: ${q.sql}`);
        return result;
      },
      executeRaw: async () => 0,
      commit: async () => void log.push(`${name}: commit`),
      rollback: async () => void log.push(`${name}: rollback`),
    }),
  } as SqlDriverAdapter;
}

const q = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

describe("gatedAdapter", () => {
  it("sends reads to the reader and holds writes back while another scope's transaction is open", async () => {
    const log: string[] = [];
    const adapter = gatedAdapter(fakeAdapter("main", log), { reader: fakeAdapter("reader", log) });
    await adapter.queryRaw(q("SELECT 1"));
    const scope = {};
    const tx = await transactionScope.run(scope, () => adapter.startTransaction());
    const write = adapter.executeRaw(q("UPDATE t SET a = 1"));
    await adapter.queryRaw(q("SELECT 2"));
    // The transaction's own callback sends to the app's client: it runs on the main connection, inside it.
    await transactionScope.run(scope, () => adapter.queryRaw(q("SELECT 3")));
    await tick();
    expect(log).toEqual(["main: SELECT 1", "reader: SELECT 2", "main: SELECT 3"]);
    await tx.rollback();
    await write;
    expect(log.slice(3)).toEqual(["main: rollback", "main: UPDATE t SET a = 1"]);
    // Nothing open: reads are the main connection's again.
    await adapter.queryRaw(q("SELECT 4"));
    expect(log.at(-1)).toBe("main: SELECT 4");
  });

  it("without a reader, a read waits for the transaction like a write", async () => {
    const log: string[] = [];
    const adapter = gatedAdapter(fakeAdapter("main", log));
    const tx = await transactionScope.run({}, () => adapter.startTransaction());
    const read = adapter.queryRaw(q("SELECT 1"));
    await tick();
    expect(log).toEqual([]);
    await tx.commit();
    await read;
    expect(log).toEqual(["main: commit", "main: SELECT 1"]);
  });
});
