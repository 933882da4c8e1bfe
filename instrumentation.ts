// Next.js calls register() once when a server instance starts (docs: app/guides/instrumentation).

const started = globalThis as { recallRetentionStarted?: boolean };

export async function register() {
  // NEXT_RUNTIME is Next's own build-time switch, not configuration: Next inlines it per bundle, so the edge bundle
  // drops this branch and never loads Prisma. lib/env.ts cannot stand in for it (reading it there is not inlined).
  if (process.env.NEXT_RUNTIME !== "nodejs" || started.recallRetentionStarted) return;
  started.recallRetentionStarted = true;
  // Before any request: the per-address limits key on the socket's address (lib/security/peer-address.ts).
  const { stampPeerAddresses } = await import("@/lib/security/peer-address");
  stampPeerAddresses();
  try {
    const { warmUp } = await import("@/lib/chat/warm-up");
    await warmUp();
  } catch (error) {
    // Only a cost moved off the first turn: the server serves without it.
    console.error("warm-up failed", error);
  }
  try {
    const { startAttachmentCleanup } = await import("@/lib/attachments/cleanup");
    startAttachmentCleanup();
  } catch (error) {
    // Housekeeping too: unsent uploads wait for the next start.
    console.error("attachments: could not start the cleanup of unsent uploads", error);
  }
  try {
    // Recall's embeddings: say whether they are used, and embed the backlog (older and imported messages).
    const { embeddingsStatus, scheduleEmbeddings } = await import("@/lib/chat/embedding-job");
    const status = await embeddingsStatus();
    if (status.status === "on")
      console.log(`recall: embeddings by ${status.model}, stored with ${status.store}`);
    else if (status.status === "unavailable") console.warn(`recall: embeddings off: ${status.reason}`);
    scheduleEmbeddings();
  } catch (error) {
    console.error("recall: could not start the embeddings", error);
  }
  try {
    const { startRetentionSchedule } = await import("@/lib/retention/schedule");
    startRetentionSchedule();
  } catch (error) {
    // Retention is housekeeping: the server serves without it.
    console.error("retention: could not start the schedule", error);
  }
}
