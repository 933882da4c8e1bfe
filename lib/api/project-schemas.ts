import { z } from "zod";
import { MAX_INSTRUCTION_CHARS } from "@/lib/memory";

// Input of the projects API (decision 036): POST /api/projects, PATCH /api/projects/:id.

/** The most characters of a project's name. */
const MAX_PROJECT_NAME_CHARS = 100;

const name = z
  .string({ message: "name must be a string" })
  .trim()
  .min(1, "A project needs a name.")
  .max(MAX_PROJECT_NAME_CHARS, `A project name can have at most ${MAX_PROJECT_NAME_CHARS} characters.`);

const instructions = z
  .string({ message: "instructions must be a string" })
  .trim()
  .max(MAX_INSTRUCTION_CHARS, `instructions can have at most ${MAX_INSTRUCTION_CHARS} characters.`)
  .nullable()
  .transform((text) => text ?? "");

/** `{ name, instructions? }`. */
export const createProjectSchema = z.object({ name, instructions: instructions.optional() }).strict();

/** `{ name?, instructions? }` (instructions "" or null: none). */
export const updateProjectSchema = z
  .object({ name: name.optional(), instructions: instructions.optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.instructions !== undefined, {
    message: "Send name, instructions or both.",
  });
