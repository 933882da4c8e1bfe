import { checkDatabase } from "@/lib/db/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = route("public", async () => {
  const database = await checkDatabase();
  return Response.json(
    { status: database.ok ? "ok" : "degraded", database },
    { status: database.ok ? 200 : 503 },
  );
});
