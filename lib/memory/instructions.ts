import type { MemoryItem } from "./types";

// The user's instructions and a conversation's system prompt as the system items sent right after the
// deployment's system prompt (docs/decisions/028-instructions.md). Unlike every other section, these are
// instructions: the user wrote them for the model. Their first lines carry no colon, so the offline model reads
// them like the system prompt, never as notes about the user.

/** The most characters of each text: "About me", "How to answer", a conversation's system prompt. */
export const MAX_INSTRUCTION_CHARS = 4000;

/** Whose instructions: the user's (settings), the conversation's project's, or this conversation's (its system prompt). */
export type InstructionScope = "user" | "project" | "conversation";

export interface Instruction {
  scope: InstructionScope;
  item: MemoryItem;
}

export const USER_INSTRUCTIONS_HEADER = "The user's own instructions, from their settings.";
const PROJECT_INSTRUCTIONS_HEADER = "The instructions of the project this conversation belongs to";
export const CONVERSATION_INSTRUCTIONS_HEADER = "The user's system prompt for this conversation.";

/**
 * The instructions to send, in order: the user's, the project's (`project`: the conversation's project, if any),
 * then the conversation's; nothing for empty texts.
 */
export function instructionItems({
  aboutMe = "",
  howToAnswer = "",
  systemPrompt = null,
  project = null,
}: {
  aboutMe?: string;
  howToAnswer?: string;
  systemPrompt?: string | null;
  project?: { name: string; instructions: string } | null;
}): Instruction[] {
  const out: Instruction[] = [];
  const parts = [
    aboutMe.trim() && `About me:\n${aboutMe.trim()}`,
    howToAnswer.trim() && `How to answer:\n${howToAnswer.trim()}`,
  ].filter(Boolean);
  if (parts.length > 0) {
    out.push({
      scope: "user",
      item: { role: "system", text: [USER_INSTRUCTIONS_HEADER, ...parts].join("\n\n") },
    });
  }
  const projectText = project?.instructions.trim();
  if (project && projectText) {
    out.push({
      scope: "project",
      item: { role: "system", text: `${PROJECT_INSTRUCTIONS_HEADER} ("${project.name}").\n\n${projectText}` },
    });
  }
  const prompt = systemPrompt?.trim();
  if (prompt) {
    out.push({
      scope: "conversation",
      item: { role: "system", text: `${CONVERSATION_INSTRUCTIONS_HEADER}\n\n${prompt}` },
    });
  }
  return out;
}
