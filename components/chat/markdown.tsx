import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { useT } from "@/lib/i18n/client";
import { CodeBlock } from "./code-block";

// react-markdown renders no raw HTML and strips javascript: URLs by default; links open outside the app.
// Images are never loaded: an answer's `![x](https://host/?leak=…)` would otherwise make the browser call that
// host as soon as it renders (and the page CSP blocks remote images anyway). They are shown as links instead.
// GitHub-flavoured extras (tables, task lists, strikethrough, autolinks) come from remark-gfm. Code blocks show
// their language, can be copied, and are highlighted once shiki has loaded (lazily, see highlight.ts).
export function Markdown({ text }: { text: string }) {
  const t = useT("chat");
  return (
    <div className="prose-recall space-y-2 leading-relaxed [overflow-wrap:anywhere]">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="underline">
              {children}
            </a>
          ),
          code: ({ children, className }) =>
            className ? (
              <code className={`font-mono ${className}`}>{children}</code>
            ) : (
              <code className="rounded bg-zinc-100 px-1 font-mono text-[0.9em]">{children}</code>
            ),
          pre: ({ children }) => <CodeBlock>{children}</CodeBlock>,
          h1: ({ children }) => <h2 className="mt-3 text-xl font-semibold">{children}</h2>,
          h2: ({ children }) => <h3 className="mt-3 text-lg font-semibold">{children}</h3>,
          h3: ({ children }) => <h4 className="mt-2 font-semibold">{children}</h4>,
          h4: ({ children }) => <h5 className="mt-2 font-semibold">{children}</h5>,
          h5: ({ children }) => <h6 className="mt-2 font-semibold">{children}</h6>,
          h6: ({ children }) => <h6 className="mt-2 font-semibold">{children}</h6>,
          blockquote: ({ children }) => (
            <blockquote className="border-l-4 border-zinc-300 pl-3 text-zinc-700">{children}</blockquote>
          ),
          table: ({ children }) => (
            <div className="overflow-x-auto">
              <table className="w-full border-collapse text-left text-sm [overflow-wrap:normal]">
                {children}
              </table>
            </div>
          ),
          th: ({ children, style }) => (
            <th style={style} className="border border-zinc-300 bg-zinc-100 px-2 py-1 font-semibold">
              {children}
            </th>
          ),
          td: ({ children, style }) => (
            <td style={style} className="border border-zinc-300 px-2 py-1">
              {children}
            </td>
          ),
          ul: ({ children, className }) => (
            <ul className={className?.includes("contains-task-list") ? "list-none pl-1" : "list-disc pl-6"}>
              {children}
            </ul>
          ),
          ol: ({ children }) => <ol className="list-decimal pl-6">{children}</ol>,
          input: ({ type, checked }) =>
            type === "checkbox" ? (
              <input
                type="checkbox"
                checked={checked}
                disabled
                aria-label={checked ? t("markdown.done") : t("markdown.notDone")}
                className="mr-1.5 align-middle"
              />
            ) : null,
          img: ({ src, alt }) => {
            const href = typeof src === "string" ? src : undefined;
            const label = t("markdown.image", { alt: alt || t("markdown.untitled") });
            return href ? (
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="underline"
                data-testid="markdown-image-link"
              >
                {label}
              </a>
            ) : (
              <span>{label}</span>
            );
          },
        }}
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
