// What every database can store (docs/decisions/023-input-boundary.md). PostgreSQL refuses NUL (U+0000) in text
// and jsonb values, SQLite stores it: input carrying one is refused at the boundary, the same on both, instead of
// failing as a storage error on one of them. Lone UTF-16 surrogates need nothing: both drivers encode them as
// U+FFFD. Pure, for lib/http.ts, the import and the tests.

/** JSON nested deeper than this is refused: no request needs it, and walking it costs stack. */
export const MAX_JSON_DEPTH = 64;

export type Unstorable = { path: string; problem: "nul" | "depth" };

/**
 * The first place in a parsed JSON value that cannot be stored: a string or key with a NUL, or nesting deeper
 * than MAX_JSON_DEPTH. Iterative, so a hostile depth cannot overflow the stack. Null: all storable.
 */
export function findUnstorable(value: unknown): Unstorable | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: v, path } = next;
    if (typeof v === "string") {
      if (v.includes("\u0000")) return { path: path.join("."), problem: "nul" };
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (path.length >= MAX_JSON_DEPTH) return { path: path.join("."), problem: "depth" };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      if (key.includes("\u0000")) return { path: [...path, key].join("."), problem: "nul" };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** The message for a field that cannot be stored, naming it. */
export function unstorableMessage({ path, problem }: Unstorable): string {
  const field = path === "" ? "The request body" : path;
  return problem === "nul"
    ? `${field} contains a NUL character (U+0000), which cannot be stored. Remove it and try again.`
    : `${field} is nested more than ${MAX_JSON_DEPTH} levels deep.`;
}

/** Whether a text from the address (a path segment or query value, decoded) carries a NUL. */
export const hasNul = (text: string): boolean => text.includes("\u0000");
