import type { Metadata } from "next";
import { ChatView } from "@/components/chat/chat-view";
import { maxInputChars, modelInfo } from "./model-info";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "New chat" };

export default function NewChatPage() {
  return (
    <ChatView
      key="new"
      sessionId={null}
      initialMessages={[]}
      initialHasMore={false}
      modelInfo={modelInfo()}
      maxInputChars={maxInputChars()}
    />
  );
}
