import { z } from "zod";
import { systemPromptSchema } from "@/lib/api/instruction-schemas";
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_IMAGES_PER_MESSAGE } from "@/lib/attachments/limits";
import { env } from "@/lib/env";

export const turnInputSchema = z.union([
  z
    .object({
      content: z
        .string({ message: "content must be a string" })
        .trim()
        .max(env.CHAT_MAX_INPUT_CHARS, `A message can have at most ${env.CHAT_MAX_INPUT_CHARS} characters.`),
      // Ids of the user's unsent uploads (POST /api/attachments); checked and claimed by the turn.
      attachments: z
        .array(z.string().min(1).max(64), { message: "attachments must be a list of file ids" })
        .max(
          MAX_ATTACHMENTS_PER_MESSAGE,
          `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files (${MAX_IMAGES_PER_MESSAGE} of them images).`,
        )
        .optional(),
      // The message this one follows (an edit posts the edited question's parent); null: a new root;
      // omitted: after the active leaf.
      parentId: z.string().min(1).max(64).nullable().optional(),
    })
    // A message may be only attachments; otherwise it needs text.
    .refine((input) => input.content.length > 0 || (input.attachments?.length ?? 0) > 0, {
      message: "Write a message first.",
      path: ["content"],
    }),
  z.object({ retryMessageId: z.string().min(1).max(64) }),
  // A new version of this answer, beside it.
  // `model`: the new version is written by this model instead of the conversation's.
  z.object({ regenerate: z.string().min(1).max(64), model: z.string().min(1).max(100).optional() }),
]);
export type TurnInput = z.infer<typeof turnInputSchema>;

export const createSessionSchema = z.object({
  title: z.string().trim().max(200).optional(),
  /** A temporary chat: not listed, not searched, nothing remembered or recalled from it, deleted after a day. */
  temporary: z.boolean().optional(),
  /** Decision 036: started in one of the user's projects (another user's is a 404). */
  projectId: z.string().min(1).max(64).nullable().optional(),
});

const renameSessionSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "A title cannot be empty.")
    .max(200, "A title can have at most 200 characters."),
});

/** PATCH /api/sessions/:id: a rename, a branch switch, the conversation's system prompt, or several. */
export const updateSessionSchema = z
  .object({
    title: renameSessionSchema.shape.title.optional(),
    activeLeafId: z.string().min(1).max(64).optional(),
    // A model id from GET /api/models; null: the deployment's default.
    model: z.string().min(1).max(100).nullable().optional(),
    systemPrompt: systemPromptSchema.optional(),
    // Decision 036: one of the user's projects (null: out of any), pin and archive.
    projectId: z.string().min(1).max(64).nullable().optional(),
    pinned: z.boolean().optional(),
    archived: z.boolean().optional(),
  })
  .refine(
    (input) =>
      input.title !== undefined ||
      input.activeLeafId !== undefined ||
      input.model !== undefined ||
      input.systemPrompt !== undefined ||
      input.projectId !== undefined ||
      input.pinned !== undefined ||
      input.archived !== undefined,
    { message: "Send a title, an activeLeafId, a model, a systemPrompt, a projectId, pinned or archived." },
  );
