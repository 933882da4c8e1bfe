import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { ChatView } from "@/components/chat/chat-view";
import { getCurrentUser } from "@/lib/auth/session";
import { getActivePathPage, getSessionForUserOrThrow } from "@/lib/db/sessions";
import { isAppError } from "@/lib/errors";
import { getT } from "@/lib/i18n/server";
import { withModelNames } from "@/lib/models/registry";
import { maxInputChars, modelInfo } from "../../model-info";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ sessionId: string }> };

/** The signed-in user's conversation, or null when it is not theirs (or gone); one query per request. */
const loadSession = cache(async (sessionId: string) => {
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  return getSessionForUserOrThrow({ sessionId, userId: user.id }).catch((e: unknown) => {
    if (isAppError(e) && e.code === "not_found") return null;
    throw e;
  });
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const session = await loadSession((await params).sessionId);
  return { title: session ? session.title : (await getT("pages"))("meta.notFound") };
}

export default async function ConversationPage({ params }: Props) {
  const session = await loadSession((await params).sessionId);
  if (!session) notFound();
  const page = await getActivePathPage({ sessionId: session.id, leafId: session.activeLeafId, limit: 200 });
  const messages = await withModelNames(page.messages);
  return (
    <ChatView
      key={session.id}
      title={session.title}
      importedAt={session.importedAt?.toISOString() ?? null}
      sessionId={session.id}
      initialHasMore={page.hasMore}
      modelInfo={modelInfo()}
      maxInputChars={maxInputChars()}
      initialMessages={messages.map((m) => ({
        id: m.id,
        seq: m.seq,
        role: m.role,
        text: m.text,
        status: m.status,
        createdAt: m.createdAt.toISOString(),
        parts: m.parts,
        toolCallId: m.toolCallId,
        parentId: m.parentId,
        siblings: m.siblings,
        ...("memoryUsed" in m ? { memoryUsed: m.memoryUsed } : {}),
        // Which model wrote an answer and its tokens: the line under it (components/chat/answer-meta.tsx).
        ...(m.role === "assistant"
          ? {
              model: m.model,
              ...(m.modelName !== undefined ? { modelName: m.modelName } : {}),
              promptTokens: m.promptTokens,
              completionTokens: m.completionTokens,
            }
          : {}),
      }))}
    />
  );
}
