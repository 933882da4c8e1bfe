import { z } from "zod";
import { createInvite, listInvites } from "@/lib/db/invites";
import { readJson, route } from "@/lib/http";

export const dynamic = "force-dynamic";

const createSchema = z.object({ validDays: z.number().int().min(1).max(365).default(7) });

export const GET = route("admin", async () => Response.json({ invites: await listInvites() }));

/** Creates an invite code for REGISTRATION=invite; the code is in this response only. */
export const POST = route("admin", async ({ req, user }) => {
  const { validDays } = await readJson(req, createSchema);
  return Response.json(await createInvite({ actorId: user.id, validDays }), { status: 201 });
});
