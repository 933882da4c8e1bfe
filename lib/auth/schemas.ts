import { z } from "zod";

export const credentialsSchema = z.object({
  email: z
    .email("Enter a valid email address")
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().min(1, "Enter your password").max(200),
});

export const registerSchema = z.object({
  email: z
    .email("Enter a valid email address")
    .max(254)
    .transform((e) => e.toLowerCase()),
  password: z.string().min(8, "Password must be at least 8 characters").max(200),
  name: z.string().trim().min(1, "Enter your name").max(100),
  inviteCode: z.string().trim().max(100).optional(),
});

export type RegisterInput = z.infer<typeof registerSchema>;

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: z.string().min(8, "Password must be at least 8 characters").max(200),
  revokeApiKeys: z.boolean().optional().default(false),
});

export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const profileSchema = z
  .object({
    name: z.string().trim().min(1, "Enter your name").max(100).optional(),
    email: z
      .email("Enter a valid email address")
      .max(254)
      .transform((e) => e.toLowerCase())
      .optional(),
    currentPassword: z.string().min(1).max(200).optional(),
  })
  .strict();

export type ProfileInput = z.infer<typeof profileSchema>;

export const deleteAccountSchema = z
  .object({ password: z.string().min(1, "Enter your password").max(200) })
  .strict();
