import type { Metadata } from "next";
import { ChatView } from "@/components/chat/chat-view";
import { getT } from "@/lib/i18n/server";
import { maxInputChars, modelInfo } from "./model-info";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT("pages"))("meta.newChat") };
}

type Props = { searchParams: Promise<{ project?: string | string[] }> };

/** `/?project=<id>`: a new chat started in that project ("New chat in project"). */
export default async function NewChatPage({ searchParams }: Props) {
  const { project } = await searchParams;
  return (
    <ChatView
      key="new"
      sessionId={null}
      projectId={typeof project === "string" && project ? project : null}
      initialMessages={[]}
      initialHasMore={false}
      modelInfo={modelInfo()}
      maxInputChars={maxInputChars()}
    />
  );
}
