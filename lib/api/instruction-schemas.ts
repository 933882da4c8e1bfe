import { z } from "zod";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory";

// Input of the instructions API: PATCH /api/me/instructions and the `systemPrompt` of PATCH /api/sessions/:id.

const instructionText = (name: string) =>
  z
    .string({ message: `${name} must be a string` })
    .trim()
    .max(MAX_INSTRUCTION_CHARS, `${name} can have at most ${MAX_INSTRUCTION_CHARS} characters.`);

/** `{ aboutMe?, howToAnswer? }`: each a text of at most 4 000 characters; "" (or null) clears it. */
export const userInstructionsSchema = z
  .object({
    aboutMe: instructionText("aboutMe").nullable().optional(),
    howToAnswer: instructionText("howToAnswer").nullable().optional(),
  })
  .strict()
  .refine((input) => input.aboutMe !== undefined || input.howToAnswer !== undefined, {
    message: "Send aboutMe, howToAnswer or both.",
  })
  .transform((input) => ({
    ...(input.aboutMe !== undefined ? { aboutMe: input.aboutMe ?? "" } : {}),
    ...(input.howToAnswer !== undefined ? { howToAnswer: input.howToAnswer ?? "" } : {}),
  }));

/** A conversation's system prompt: a text of at most 4 000 characters; null (or "") clears it. */
export const systemPromptSchema = instructionText("systemPrompt")
  .nullable()
  .transform((text) => (text ? text : null));
