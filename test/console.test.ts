import { describe, expect, it } from "vitest";
import { allowConsole, beginTest, endTest, expectConsoleError, expectConsoleWarn } from "./console";

// The guard's own checks, run by hand inside a test: endTest() is what test/setup.ts calls after each test.
function verdict(): string | null {
  try {
    endTest();
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    beginTest();
  }
}

describe("console guard", () => {
  it("fails a test that logs console.error or console.warn unannounced, quoting the line", () => {
    console.error("database %s is gone", "main");
    expect(verdict()).toMatch(/unexpected console\.error: database main is gone/);
    console.warn("careful");
    expect(verdict()).toMatch(/unexpected console\.warn: careful/);
    console.log("plain output is not an error");
    expect(verdict()).toBeNull();
  });

  it("accepts an announced line and fails when the announced line never comes", () => {
    expectConsoleError(/model request failed/);
    console.error(new Error("model request failed: 500"));
    expect(verdict()).toBeNull();

    expectConsoleWarn("slow");
    expect(verdict()).toMatch(/expected a console\.warn matching slow, none was logged/);
  });

  it("an announcement covers one level and one pattern only", () => {
    expectConsoleError(/expected/);
    console.error("expected");
    console.error("something else");
    console.warn("expected");
    const message = verdict();
    expect(message).toMatch(/unexpected console\.error: something else/);
    expect(message).toMatch(/unexpected console\.warn: expected/);
    expect(message).not.toMatch(/console\.error: expected/);
  });

  it("allowConsole lets lines through without requiring them", () => {
    allowConsole("warn");
    expect(verdict()).toBeNull();
    allowConsole("warn", /deprecated/);
    console.warn("this is deprecated");
    expect(verdict()).toBeNull();
  });
});

describe("console guard, file scope", () => {
  allowConsole("error", /tolerated everywhere/);

  it("an allowance made outside a test holds for the tests after it", () => {
    console.error("tolerated everywhere");
    expect(verdict()).toBeNull();
    console.error("tolerated everywhere, again");
    expect(verdict()).toBeNull();
  });
});
