// The heartbeat of every answer streaming in this process, on one timer: each beat renews all their leases in one
// statement and saves all changed drafts in another, so a thousand open answers cost two writes a second, not two
// thousand (which stalled the event loop in the benchmark's W6). Pure scheduling; the statements are injected
// (lib/db/heartbeats.ts in the app), so it is tested without a database too.

export interface HeartbeatLease {
  sessionId: string;
  leaseId: string;
}

export interface HeartbeatStore {
  /** Renews the leases still held; returns the `keyOf` keys of those renewed. */
  renewLeases(leases: readonly HeartbeatLease[], leaseSeconds: number): Promise<Set<string>>;
  /** Saves the text so far of answers still streaming. */
  saveAnswerDrafts(drafts: readonly { answerId: string; text: string }[]): Promise<void>;
  keyOf(lease: HeartbeatLease): string;
}

export interface HeartbeatEntry {
  lease: HeartbeatLease;
  answerId: string;
  leaseSeconds: number;
  /** The answer's text so far, updated by the stream. */
  draft: { text: string };
  /** Called once, when a beat finds the lease taken over (or the session gone); the entry is dropped. */
  onLeaseLost: () => void;
}

type Live = HeartbeatEntry & { saved: string };

export class Heartbeats {
  private readonly live = new Set<Live>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running = false;

  constructor(
    private readonly store: HeartbeatStore,
    private readonly intervalMs: number,
    private readonly warn: (message: string) => void = console.warn,
  ) {}

  /** Keeps `entry` alive from the next beat on, until `stop()`. */
  add(entry: HeartbeatEntry): { stop: () => void } {
    const live: Live = { ...entry, saved: "" };
    this.live.add(live);
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat(), this.intervalMs);
      this.timer.unref();
    }
    return {
      stop: () => {
        this.live.delete(live);
        if (this.live.size === 0 && this.timer) {
          clearInterval(this.timer);
          this.timer = null;
        }
      },
    };
  }

  get size(): number {
    return this.live.size;
  }

  /**
   * One beat: renew every live lease, report the lost ones, save the drafts that changed. A beat still running
   * when the next is due is not overlapped; a storage error is logged and the next beat tries again.
   */
  async beat(): Promise<void> {
    if (this.running || this.live.size === 0) return;
    this.running = true;
    const entries = [...this.live];
    try {
      const bySeconds = new Map<number, Live[]>();
      for (const e of entries) {
        const group = bySeconds.get(e.leaseSeconds);
        if (group) group.push(e);
        else bySeconds.set(e.leaseSeconds, [e]);
      }
      const held: Live[] = [];
      for (const [seconds, group] of bySeconds) {
        const renewed = await this.store.renewLeases(
          group.map((e) => e.lease),
          seconds,
        );
        for (const e of group) {
          if (renewed.has(this.store.keyOf(e.lease))) held.push(e);
          else if (this.live.delete(e)) e.onLeaseLost();
        }
      }
      const changed = held.filter((e) => this.live.has(e) && e.draft.text !== e.saved);
      if (changed.length === 0) return;
      const texts = changed.map((e) => e.draft.text);
      await this.store.saveAnswerDrafts(
        changed.map((e, i) => ({ answerId: e.answerId, text: texts[i] ?? "" })),
      );
      changed.forEach((e, i) => {
        e.saved = texts[i] ?? "";
      });
    } catch (e) {
      this.warn(
        `[chat] heartbeat of ${entries.length} streaming answer(s) failed, retrying: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      this.running = false;
    }
  }
}
