import { afterAll, afterEach, beforeEach } from "vitest";
import { beginTest, endFile, endTest, installConsoleGuard } from "./console";

// Vitest setupFile of every project (before each test file): fails a test that logs console.error/console.warn
// it did not announce (see test/console.ts).

installConsoleGuard();
beforeEach(() => beginTest());
afterEach(() => endTest());
afterAll(() => endFile());
