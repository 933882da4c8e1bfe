import { z } from "zod";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory";
import { MAX_PROJECT_NAME_CHARS } from "@/lib/projects/limits";

// Input of the projects API (decision 036): POST /api/projects, PATCH /api/projects/:id.

/** A project's name (also in an export file). */
export const projectNameSchema = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "A project needs a name.")
  .max(MAX_PROJECT_NAME_CHARS, `A project name can have at most ${MAX_PROJECT_NAME_CHARS} characters.`);

/** A project's instructions ("" or null: none; also in an export file). */
export const projectInstructionsSchema = z
  .string({ message: "instructions must be a string" })
  .trim()
  .max(MAX_INSTRUCTION_CHARS, `instructions can have at most ${MAX_INSTRUCTION_CHARS} characters.`)
  .nullable()
  .transform((text) => text ?? "");

/** `{ name, instructions? }`. */
export const createProjectSchema = z
  .object({ name: projectNameSchema, instructions: projectInstructionsSchema.optional() })
  .strict();

/** `{ name?, instructions? }` (instructions "" or null: none). */
export const updateProjectSchema = z
  .object({ name: projectNameSchema.optional(), instructions: projectInstructionsSchema.optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.instructions !== undefined, {
    message: "Send name, instructions or both.",
  });
