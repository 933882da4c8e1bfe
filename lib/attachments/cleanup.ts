import "server-only";
import { unsafeDeleteUnsentAttachmentsBefore } from "@/lib/db/attachments";
import { UNSENT_TTL_MS } from "./limits";

// Uploads that were never sent (the composer was closed, the file removed, the message abandoned) are deleted a day
// after upload. Every instance may run it: the delete is one conditional statement, and a file claimed by a turn
// meanwhile is no longer unsent.

const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes the unsent uploads older than UNSENT_TTL_MS at `now`; returns how many and their bytes. */
export async function deleteUnsentAttachments({ now = new Date() }: { now?: Date } = {}) {
  return unsafeDeleteUnsentAttachmentsBefore({ before: new Date(now.getTime() - UNSENT_TTL_MS) });
}

async function logged(): Promise<void> {
  try {
    const { Attachment, AttachmentBytes } = await deleteUnsentAttachments();
    if (Attachment > 0) {
      console.log(
        `attachments: deleted ${Attachment} unsent uploads older than a day (${AttachmentBytes} bytes)`,
      );
    }
  } catch (error) {
    console.error("attachments: the cleanup of unsent uploads failed; it runs again in an hour", error);
  }
}

/** Runs the cleanup at server start and then every hour (instrumentation.ts). Never throws. */
export function startAttachmentCleanup({ intervalMs = CLEANUP_INTERVAL_MS }: { intervalMs?: number } = {}) {
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= logged().finally(() => {
      running = null;
    });
    return running;
  };
  const first = tick();
  const timer = setInterval(tick, intervalMs).unref();
  return { first, stop: () => clearInterval(timer) };
}
