import { format } from "node:util";

// Any console.error / console.warn a test did not announce fails that test (test/setup.ts installs the guard for
// every vitest project). A test that provokes a logged error on purpose says so first:
//
//   expectConsoleError(/model request failed/);  // must be logged during this test, at least once
//   allowConsole("warn", /deprecated/);           // may be logged (also from a describe block: the whole file)
//
// The announced lines are swallowed, so a green run prints no stray errors.

type Level = "error" | "warn";

interface Rule {
  level: Level;
  pattern: RegExp | string;
  /** The test fails if no line matched it. */
  required: boolean;
  /** Registered outside a test (file scope): kept for every test of the file. */
  fileScope: boolean;
  matched: number;
}

interface Line {
  level: Level;
  text: string;
}

const state = { inTest: false, rules: [] as Rule[], lines: [] as Line[], installed: false };

function matches(rule: Rule, line: Line): boolean {
  if (rule.level !== line.level) return false;
  return typeof rule.pattern === "string" ? line.text.includes(rule.pattern) : rule.pattern.test(line.text);
}

function addRule(level: Level, pattern: RegExp | string, required: boolean) {
  state.rules.push({
    level,
    pattern,
    required: required && state.inTest,
    fileScope: !state.inTest,
    matched: 0,
  });
}

/** This test logs a console.error matching `pattern` (it fails if it does not). */
export function expectConsoleError(pattern: RegExp | string): void {
  addRule("error", pattern, true);
}

/** This test logs a console.warn matching `pattern` (it fails if it does not). */
export function expectConsoleWarn(pattern: RegExp | string): void {
  addRule("warn", pattern, true);
}

/**
 * Lines of `level` matching `pattern` (any line when omitted) may be logged. Called inside a test it holds for
 * that test; called in a describe block or at the top of a file, for every test of the file.
 */
export function allowConsole(level: Level, pattern: RegExp | string = /[\s\S]*/): void {
  addRule(level, pattern, false);
}

/** Replaces console.error/warn with recorders (not spies, so a test's vi.restoreAllMocks() keeps the guard). */
export function installConsoleGuard(): void {
  if (state.installed) return;
  state.installed = true;
  for (const level of ["error", "warn"] as const) {
    console[level] = (...args: unknown[]) => {
      state.lines.push({ level, text: format(...args) });
    };
  }
}

export function beginTest(): void {
  state.inTest = true;
}

/**
 * Ends a test: throws (failing it) when a line was logged that no rule announced, or a required line was not
 * logged. Lines logged by the file's beforeAll hooks count towards its first test.
 */
export function endTest(): void {
  state.inTest = false;
  const lines = state.lines.splice(0);
  const rules = state.rules;
  state.rules = rules.filter((r) => r.fileScope);
  const unexpected = lines.filter((line) => {
    const rule = rules.find((r) => matches(r, line));
    if (rule) rule.matched++;
    return !rule;
  });
  const missing = rules.filter((r) => r.required && r.matched === 0);
  for (const r of state.rules) r.matched = 0;
  const problems = [
    ...unexpected.map((l) => `unexpected console.${l.level}: ${l.text}`),
    ...missing.map((r) => `expected a console.${r.level} matching ${String(r.pattern)}, none was logged`),
  ];
  if (problems.length > 0) {
    throw new Error(
      `${problems.join("\n")}\n(a test that logs on purpose declares it with expectConsoleError()/allowConsole() from test/console.ts)`,
    );
  }
}

/** After the file: what its afterAll hooks logged. */
export function endFile(): void {
  state.rules = state.rules.filter((r) => r.fileScope);
  endTest();
}
