"use client";

import { isValidElement, type ReactNode, useState } from "react";

function textOf(node: ReactNode): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return "";
}

/** A fenced code block: its language on top, a copy button that says when it worked. */
export function CodeBlock({ children }: { children: ReactNode }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const code = isValidElement<{ className?: string }>(children) ? children : null;
  const language = /language-([\w+#-]+)/.exec(code?.props.className ?? "")?.[1];
  const text = textOf(children).replace(/\n$/, "");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 2000);
  }

  return (
    <div className="overflow-hidden rounded-md border border-zinc-200" data-testid="code-block">
      <div className="flex items-center justify-between bg-zinc-100 px-3 py-1 text-xs text-zinc-600">
        <span data-testid="code-language">{language ?? "code"}</span>
        <button
          type="button"
          onClick={() => void copy()}
          className="rounded px-1.5 py-0.5 hover:bg-zinc-200 focus-visible:outline-2 focus-visible:outline-zinc-900"
          data-testid="code-copy"
        >
          <span aria-live="polite">
            {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed — select the text" : "Copy"}
          </span>
        </button>
      </div>
      <pre className="overflow-x-auto bg-zinc-50 p-3 text-sm [overflow-wrap:normal]">{children}</pre>
    </div>
  );
}
