import { getAdminOverview } from "@/lib/db/admin";
import { route } from "@/lib/http";

/** Counts for the dashboard and messages per UTC day over the last 14 days. */
export const GET = route("admin", async () => Response.json(await getAdminOverview()));
