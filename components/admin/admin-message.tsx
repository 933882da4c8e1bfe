"use client";

import { AdminImages } from "@/components/attachments/admin-images";
import { useT } from "@/lib/i18n/client";
import { AdminMessageHeader } from "./admin-message-header";
import { AdminSentContext, AdminToolCalls } from "./admin-message-tools";
import { type ParentNote, TreeMarks } from "./tree-marks";
import type { AdminMessageView } from "./types";

/** One history message as stored, with everything an admin may need to judge it; text is shown raw, not rendered. */
export function AdminMessage({
  sessionId,
  message,
  inMemory,
  branched = false,
  parent = null,
}: {
  sessionId: string;
  message: AdminMessageView;
  inMemory: boolean;
  /** The conversation has branches: show the message's place in the tree. */
  branched?: boolean;
  parent?: ParentNote;
}) {
  const t = useT("admin");
  const { tree } = message;
  return (
    <article
      className={`scroll-mt-4 rounded-lg border border-zinc-200 bg-white p-3 ${inMemory ? "border-l-4 border-l-emerald-500" : ""}`}
      data-testid="admin-message"
      data-role={message.role}
      data-seq={message.seq}
      data-status={message.status}
      data-in-memory={inMemory}
      data-on-path={tree.onPath}
      data-children={tree.children}
      data-parent-seq={tree.parentSeq ?? undefined}
      id={`msg-${message.seq}`}
      aria-label={t("message.label", { seq: message.seq, role: message.role })}
    >
      <AdminMessageHeader message={message} inMemory={inMemory} />
      {branched && <TreeMarks tree={tree} parent={parent} />}
      <p className="whitespace-pre-wrap [overflow-wrap:anywhere] text-sm" data-testid="admin-message-text">
        {message.text || <em className="text-zinc-500">{t("empty")}</em>}
      </p>
      <AdminToolCalls message={message} />
      <AdminImages urls={message.imageUrls} />
      {message.role === "assistant" && <AdminSentContext sessionId={sessionId} messageId={message.id} />}
    </article>
  );
}
