import { embeddingsStatus } from "@/lib/chat/embedding-job";
import { checkDatabase } from "@/lib/db/health";
import { route } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = route("public", async () => {
  const database = await checkDatabase();
  // Recall without its embeddings still works (lexically): reported, never a degraded status.
  const embeddings = database.ok ? await embeddingsStatus() : undefined;
  return Response.json(
    { status: database.ok ? "ok" : "degraded", database, ...(embeddings ? { recall: { embeddings } } : {}) },
    { status: database.ok ? 200 : 503 },
  );
});
