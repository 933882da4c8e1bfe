"use client";

import { Markdown } from "@/components/chat/markdown";
import { useT } from "@/lib/i18n/client";

/** One message of a shared conversation: who said it, and its text (answers as Markdown, questions as typed). */
export function SharedMessage({ role, text }: { role: "user" | "assistant"; text: string }) {
  const t = useT("share");
  const isUser = role === "user";
  return (
    <li className={isUser ? "flex justify-end" : "flex justify-start"} data-testid="shared-message">
      <div
        className={
          isUser
            ? "max-w-[85%] rounded-2xl bg-zinc-900 px-4 py-2 text-white [overflow-wrap:anywhere] whitespace-pre-wrap"
            : "max-w-full min-w-0 [overflow-wrap:anywhere]"
        }
      >
        <span className="sr-only">{isUser ? t("page.user") : t("page.assistant")}: </span>
        {isUser ? text : <Markdown text={text} />}
      </div>
    </li>
  );
}
