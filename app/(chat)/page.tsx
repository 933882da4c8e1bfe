import type { Metadata } from "next";
import { ChatView } from "@/components/chat/chat-view";
import { getT } from "@/lib/i18n/server";
import { maxInputChars, modelInfo } from "./model-info";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.newChat") };
}

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
