// Syntax highlighting for code blocks, loaded by CodeBlock with a dynamic import the first time a block in a
// language below appears: shiki's core, its JavaScript regex engine (no WebAssembly) and only the grammars asked
// for. Both GitHub themes at once: each token's colour is `light-dark(light, dark)`, so it follows the page's
// colour scheme like the rest of the app. Nothing of this is in the page's initial JavaScript.
import type { HighlighterCore, ThemedTokenWithVariants } from "shiki/core";

const grammars = {
  bash: () => import("shiki/langs/bash.mjs"),
  c: () => import("shiki/langs/c.mjs"),
  cpp: () => import("shiki/langs/cpp.mjs"),
  css: () => import("shiki/langs/css.mjs"),
  diff: () => import("shiki/langs/diff.mjs"),
  go: () => import("shiki/langs/go.mjs"),
  html: () => import("shiki/langs/html.mjs"),
  java: () => import("shiki/langs/java.mjs"),
  javascript: () => import("shiki/langs/javascript.mjs"),
  json: () => import("shiki/langs/json.mjs"),
  jsx: () => import("shiki/langs/jsx.mjs"),
  markdown: () => import("shiki/langs/markdown.mjs"),
  python: () => import("shiki/langs/python.mjs"),
  rust: () => import("shiki/langs/rust.mjs"),
  sql: () => import("shiki/langs/sql.mjs"),
  tsx: () => import("shiki/langs/tsx.mjs"),
  typescript: () => import("shiki/langs/typescript.mjs"),
  yaml: () => import("shiki/langs/yaml.mjs"),
} as const;

type Grammar = keyof typeof grammars;

const aliases: Record<string, Grammar> = {
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  "c++": "cpp",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  mts: "typescript",
  py: "python",
  python3: "python",
  rs: "rust",
  golang: "go",
  yml: "yaml",
  md: "markdown",
  patch: "diff",
  xml: "html",
};

/** The grammar for a fence's language name ("ts", "Python"), or null when it is not one we highlight. */
export function grammarOf(language: string): Grammar | null {
  const name = language.toLowerCase();
  if (name in grammars) return name as Grammar;
  return aliases[name] ?? null;
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<Grammar, Promise<void>>();

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
      import("shiki/themes/github-light-default.mjs"),
      import("shiki/themes/github-dark-default.mjs"),
    ]);
    return createHighlighterCore({
      themes: [light.default, dark.default],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  return highlighter;
}

// The light theme's comment grey is 4.4:1 on the code block's background; one step darker passes AA (6:1).
const lightFixes: Record<string, string> = { "#6e7781": "#57606a" };

export interface Token {
  content: string;
  /** A CSS colour: light-dark(light, dark). */
  color?: string;
  italic?: boolean;
  bold?: boolean;
}

/** `code` as lines of coloured tokens, or null when the language is not highlighted. */
export async function highlight(code: string, language: string): Promise<Token[][] | null> {
  const grammar = grammarOf(language);
  if (!grammar) return null;
  const h = await getHighlighter();
  let loading = loaded.get(grammar);
  if (!loading) {
    loading = grammars[grammar]().then((m) => h.loadLanguage(m.default));
    loaded.set(grammar, loading);
  }
  await loading;
  const lines: ThemedTokenWithVariants[][] = h.codeToTokensWithThemes(code, {
    lang: grammar,
    themes: { light: "github-light-default", dark: "github-dark-default" },
  });
  return lines.map((line) =>
    line.map(({ content, variants }) => {
      const light = variants.light
        ? {
            ...variants.light,
            color: lightFixes[variants.light.color?.toLowerCase() ?? ""] ?? variants.light.color,
          }
        : undefined;
      const dark = variants.dark;
      const style = light?.fontStyle ?? 0;
      return {
        content,
        color: light?.color && dark?.color ? `light-dark(${light.color}, ${dark.color})` : undefined,
        // FontStyle flags: 1 italic, 2 bold.
        italic: (style & 1) !== 0 || undefined,
        bold: (style & 2) !== 0 || undefined,
      };
    }),
  );
}
