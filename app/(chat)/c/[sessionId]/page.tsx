import { notFound, redirect } from "next/navigation";
import { ChatView } from "@/components/chat/chat-view";
import { getCurrentUser } from "@/lib/auth/session";
import { getMessagesBySessionId, getSessionForUserOrThrow } from "@/lib/db/sessions";
import { isAppError } from "@/lib/errors";
import { modelInfo } from "../../model-info";

export const dynamic = "force-dynamic";

export default async function ConversationPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const user = await getCurrentUser();
  if (!user) redirect("/login");
  const session = await getSessionForUserOrThrow({ sessionId, userId: user.id }).catch((e: unknown) => {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  });
  const { messages, hasMore } = await getMessagesBySessionId({ sessionId: session.id, limit: 200 });
  return (
    <ChatView
      key={session.id}
      sessionId={session.id}
      initialHasMore={hasMore}
      modelInfo={modelInfo()}
      initialMessages={messages.map((m) => ({
        id: m.id,
        seq: m.seq,
        role: m.role,
        text: m.text,
        status: m.status,
        createdAt: m.createdAt.toISOString(),
      }))}
    />
  );
}
