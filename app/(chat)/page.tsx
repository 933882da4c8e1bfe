import { ChatView } from "@/components/chat/chat-view";
import { modelInfo } from "./model-info";

export const dynamic = "force-dynamic";

export default function NewChatPage() {
  return (
    <ChatView
      key="new"
      sessionId={null}
      initialMessages={[]}
      initialHasMore={false}
      modelInfo={modelInfo()}
    />
  );
}
