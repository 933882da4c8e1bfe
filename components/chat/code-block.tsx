"use client";

import { Fragment, isValidElement, type ReactNode, useEffect, useState } from "react";
import { useT } from "@/lib/i18n/client";
import { CopyButton } from "./copy-button";
import type { Token } from "./highlight";

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/**
 * A fenced code block: its language on top, a copy button that says when it worked, and colours once the
 * highlighter has loaded (lazily, see highlight.ts; until then, and for languages it does not know, plain text).
 */
export function CodeBlock({ children }: { children: ReactNode }) {
  const t = useT("chat");
  const code = isValidElement<{ className?: string }>(children) ? children : null;
  const language = /language-([\w+#-]+)/.exec(code?.props.className ?? "")?.[1];
  const text = textOf(children).replace(/\n$/, "");
  const [lines, setLines] = useState<{ text: string; tokens: Token[][] } | null>(null);

  useEffect(() => {
    if (!language) return;
    let current = true;
    // The highlighter (and even its list of languages) is fetched only once a code block is on screen.
    import("./highlight")
      .then(({ highlight }) => highlight(text, language))
      .then(
        (tokens) => {
          if (current && tokens) setLines({ text, tokens });
        },
        (e: unknown) => console.warn("Code highlighting failed; showing plain text.", e),
      );
    return () => {
      current = false;
    };
  }, [text, language]);

  // Colours only for the text they were made for: while an answer streams, the newest text shows plain first.
  const tokens = lines?.text === text ? lines.tokens : null;

  return (
    <div className="overflow-hidden rounded-md border border-zinc-200" data-testid="code-block">
      <div className="flex items-center justify-between bg-zinc-100 px-3 py-1 text-xs text-zinc-600">
        <span data-testid="code-language">{language ?? t("code.fallbackLanguage")}</span>
        <span className="flex items-center gap-2">
          <CopyButton
            text={text}
            label={t("code.copyLabel", { language: language ?? t("code.fallbackLanguage") })}
            className="rounded px-1.5 py-0.5 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-zinc-900"
            testId="code-copy"
          />
        </span>
      </div>
      <pre className="overflow-x-auto bg-zinc-50 p-3 text-sm [overflow-wrap:normal]">
        {tokens ? (
          <code className="font-mono" data-testid="code-highlighted">
            {tokens.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable text
              <Fragment key={i}>
                {i > 0 && "\n"}
                {line.map((token, j) => (
                  <span
                    // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one immutable line
                    key={j}
                    style={{
                      color: token.color,
                      fontStyle: token.italic ? "italic" : undefined,
                      fontWeight: token.bold ? 600 : undefined,
                    }}
                  >
                    {token.content}
                  </span>
                ))}
              </Fragment>
            ))}
          </code>
        ) : (
          children
        )}
      </pre>
    </div>
  );
}
