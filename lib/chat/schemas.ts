import { z } from "zod";
import { env } from "@/lib/env";

export const turnInputSchema = z.union([
  z.object({
    content: z
      .string({ message: "content must be a string" })
      .trim()
      .min(1, "Write a message first.")
      .max(env.CHAT_MAX_INPUT_CHARS, `A message can have at most ${env.CHAT_MAX_INPUT_CHARS} characters.`),
  }),
  z.object({ retryMessageId: z.string().min(1).max(64) }),
]);
export type TurnInput = z.infer<typeof turnInputSchema>;

export const createSessionSchema = z.object({
  title: z.string().trim().max(200).optional(),
});

export const renameSessionSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "A title cannot be empty.")
    .max(200, "A title can have at most 200 characters."),
});
