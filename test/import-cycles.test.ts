import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// No module of the app imports itself back through others: a cycle makes load order decide what a module sees
// (an import that is still undefined), and it is where layers start to leak into each other. Walks the static
// imports (type-only imports load nothing, so they are left out) of lib/, app/, components/ and scripts/.

const root = resolve(import.meta.dirname, "..");
const DIRS = ["lib", "app", "components", "scripts"];
const SKIP = new Set(["node_modules", "generated", ".next"]);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The file an import specifier names, or null for packages and files outside the walked sources. */
function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith("@/")
    ? join(root, spec.slice(2))
    : spec.startsWith(".")
      ? resolve(dirname(from), spec)
      : null;
  if (base === null) return null;
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, "index.ts"),
    join(base, "index.tsx"),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Static imports and re-exports that load code (not `import type` / `export type`). */
function importsOf(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specs: string[] = [];
  for (const [, typeOnly, spec] of code.matchAll(
    /^\s*(?:import|export)\s+(type\s+)?[^;'"]*?from\s+["']([^"']+)["']/gm,
  )) {
    if (!typeOnly && spec) specs.push(spec);
  }
  for (const [, spec] of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) if (spec) specs.push(spec);
  return specs;
}

/** Every cycle's path (each found once, from its first module in walk order). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe("import graph", () => {
  it("reads static imports and leaves type-only ones out", () => {
    expect(
      importsOf(
        [
          'import "server-only";',
          'import { a, type B } from "./a";',
          'import type { C } from "./c";',
          'export { d } from "@/lib/d";',
          'export type { E } from "./e";',
          "// import { f } from './f';",
        ].join("\n"),
      ),
    ).toEqual(["./a", "@/lib/d", "server-only"]);
  });

  it("finds a cycle", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c", "a"]]);
  });

  it("has no cycle in lib/, app/, components/ or scripts/", () => {
    const files = DIRS.flatMap((dir) => sources(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    const graph = new Map(
      files.map((file) => [
        file,
        importsOf(readFileSync(file, "utf8")).flatMap((spec) => {
          const target = resolveImport(file, spec);
          return target ? [target] : [];
        }),
      ]),
    );
    expect(cycles(graph).map((cycle) => cycle.map((f) => relative(root, f)).join(" → "))).toEqual([]);
  });
});
