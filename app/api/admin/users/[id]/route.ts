import { updateUserSchema } from "@/lib/admin/schemas";
import { deleteUserAsAdmin } from "@/lib/auth/account";
import { updateUserForAdmin } from "@/lib/db/admin-users";
import { readJson, route } from "@/lib/http";

type Params = { id: string };

/** `{ role?: "USER" | "ADMIN", disabled?: boolean }` → `{ user }`; 409 `last_admin` / `self_action` when refused. */
export const PATCH = route<Params, "admin">("admin", async ({ req, params, user }) => {
  const input = await readJson(req, updateUserSchema);
  const updated = await updateUserForAdmin({ actorId: user.id, userId: params.id, ...input });
  return Response.json({ user: updated });
});

/** Deletes the user and all their sessions → `{ receipt }`. */
export const DELETE = route<Params, "admin">("admin", async ({ params, user }) => {
  const receipt = await deleteUserAsAdmin({ actorId: user.id, userId: params.id });
  return Response.json({ receipt });
});
