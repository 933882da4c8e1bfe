import { z } from "zod";

export const createApiKeySchema = z.object({
  name: z
    .string({ message: "name must be a string" })
    .trim()
    .min(1, "Give the key a name, e.g. the program that will use it.")
    .max(100, "A key name can have at most 100 characters."),
});
