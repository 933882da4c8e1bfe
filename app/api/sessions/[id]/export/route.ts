import { AppError } from "@/lib/errors";
import { downloadHeaders } from "@/lib/export/download";
import { conversationToMarkdown, type MarkdownLabels } from "@/lib/export/markdown";
import { type AttachmentMode, exportConversationForUser } from "@/lib/export/read";
import { activePath } from "@/lib/export/tree";
import { route } from "@/lib/http";
import { getT } from "@/lib/i18n/server";

type Params = { id: string };

function choice<T extends string>(url: URL, name: string, allowed: readonly T[], fallback: T): T {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return fallback;
  if (!allowed.includes(raw as T))
    throw new AppError("bad_request", `${name} must be one of ${allowed.join(", ")}.`);
  return raw as T;
}

/**
 * One conversation as a download: `format=md` (default) its active branch as Markdown, `format=json` the export
 * format (the active branch, or every branch with `all=1`); `attachments=inline` puts the files in the JSON.
 */
export const GET = route<Params>("user", async ({ req, params, user }) => {
  const url = new URL(req.url);
  const format = choice(url, "format", ["md", "json"], "md");
  const all = choice(url, "all", ["0", "1"], "0") === "1";
  const attachments = choice<AttachmentMode>(url, "attachments", ["reference", "inline"], "reference");
  const file = await exportConversationForUser({
    userId: user.id,
    sessionId: params.id,
    branches: all && format === "json" ? "tree" : "path",
    attachments: format === "md" ? "reference" : attachments,
  });
  const conversation = file.conversations[0];
  if (!conversation) throw new AppError("not_found", "This conversation does not exist or is not yours.");
  const date = new Date(file.exportedAt);
  if (format === "json") {
    return new Response(JSON.stringify(file, null, 1), {
      headers: downloadHeaders({ title: conversation.title, date, extension: "json" }),
    });
  }
  const t = await getT("data");
  const labels: MarkdownLabels = {
    you: t("markdown.you"),
    assistant: t("markdown.assistant"),
    system: t("markdown.system"),
    exported: (values) => t("markdown.exported", values),
    attachments: t("markdown.attachments"),
    tool: t("markdown.tool"),
    noResult: t("markdown.noResult"),
    interrupted: t("markdown.interrupted"),
    failed: t("markdown.failed"),
  };
  const byId = new Map(conversation.messages.map((m) => [m.localId, m]));
  const path = activePath(
    conversation.messages.map((m) => ({ id: m.localId, parentId: m.parentLocalId, seq: m.seq })),
    conversation.activeLeafLocalId,
  ).flatMap((n) => byId.get(n.id) ?? []);
  const markdown = conversationToMarkdown(
    { ...conversation, messages: path },
    {
      labels,
      exportedAt: file.exportedAt,
      attachmentUrl: (id) => `${url.origin}/api/attachments/${encodeURIComponent(id)}`,
    },
  );
  return new Response(markdown, {
    headers: downloadHeaders({ title: conversation.title, date, extension: "md" }),
  });
});
