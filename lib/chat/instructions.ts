import "server-only";
import type { TxOption } from "@/lib/db/client";
import { getTurnInstructions } from "@/lib/db/instructions";
import { type Instruction, instructionItems } from "@/lib/memory";

/**
 * The user's instructions, the conversation's project's and its system prompt, as the turn sends them (none for
 * empty texts).
 */
export async function loadInstructions(
  { sessionId, userId }: { sessionId: string; userId: string },
  { tx }: TxOption = {},
): Promise<Instruction[]> {
  const row = await getTurnInstructions({ sessionId, userId }, { tx });
  return row ? instructionItems(row) : [];
}
