"use client";

import { useT } from "@/lib/i18n/client";
import { useChat } from "./chat-store";
import { useProjects } from "./use-sessions";

/** On a new chat started in a project: which one (its instructions and memories will apply). */
export function NewChatProject() {
  const t = useT("sidebar");
  const { projectId } = useChat();
  const { projects } = useProjects();
  const project = projectId ? projects?.find((p) => p.id === projectId) : undefined;
  if (!project) return null;
  return (
    <p
      className="mx-auto mt-2 max-w-3xl truncate rounded-md bg-zinc-100 px-3 py-1.5 text-sm text-zinc-700"
      data-testid="new-chat-project"
    >
      {t("projects.newChatIn", { name: project.name })}
    </p>
  );
}
