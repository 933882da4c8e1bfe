import type { Options, Sizes } from "../config";
import type { Client } from "../http";
import type { Pipeline } from "../inprocess";
import type { Inspector } from "../inspect";
import type { BenchPlan } from "../plan";
import type { Target } from "../report";
import type { RunningServer } from "../server";

// One workload of the benchmark: what it runs, the targets it is judged by, the invariants it checks and how
// it prints. The runner (runner.ts) starts what a phase needs once and hands it to every workload of the phase.

/**
 * Where a workload runs: in-process on an instrumented client; on the main server; on a server whose model waits
 * before its first token; on a server whose model streams slowly; on servers the workload starts itself; or
 * after every server has stopped (invariants read from the database).
 */
export type Phase = "inprocess" | "main" | "slow" | "streaming" | "own" | "after";

export interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface BenchContext {
  options: Options;
  sizes: Sizes;
  plan: BenchPlan;
  url: string;
  dialect: "sqlite" | "postgresql";
  authSecret: string;
  startedAt: Date;
  log: (message: string) => void;
  /** What the workloads before returned, by id. */
  results: Record<string, unknown>;
  /** Starts a `next start` on the bench database (stopped by the runner if the workload does not). */
  startServer: (
    extra?: Record<string, string>,
    options?: { workers?: number; cpus?: string },
  ) => Promise<RunningServer>;
  /** The phase's handles; only those of the workload's phase are set. */
  pipeline?: Pipeline;
  server?: RunningServer;
  inspector?: Inspector | null;
  owner?: Client;
  admin?: Client;
  w2Clients?: Client[];
}

export interface ReportContext {
  sizes: Sizes;
  meta: Record<string, unknown>;
  results: Record<string, unknown>;
  targets: Target[];
}

export interface Workload<R = unknown> {
  id: string;
  phase: Phase;
  /** Whether this run includes it (default: always). */
  enabled?: (options: Options) => boolean;
  /** One line for the progress log. */
  describe: (sizes: Sizes, options: Options) => string;
  run: (ctx: BenchContext) => Promise<R>;
  targets?: (result: R, report: ReportContext) => Target[];
  checks?: (result: R, report: ReportContext) => Check[];
  render: (result: R, report: ReportContext) => string[];
}

/** Declares a workload with its result type checked across run, targets, checks and render. */
export const workload = <R>(w: Workload<R>): Workload<R> => w;

/** A phase handle the runner must have set; a missing one is a bug in the registry. */
export function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`bench: ${what} is not available in this phase`);
  return value;
}

/** Any workload, as the registry holds them (the runner passes each its own result back). */
export interface RegisteredWorkload {
  id: string;
  phase: Phase;
  enabled?: (options: Options) => boolean;
  describe: (sizes: Sizes, options: Options) => string;
  run: (ctx: BenchContext) => Promise<unknown>;
  targets?: (result: never, report: ReportContext) => Target[];
  checks?: (result: never, report: ReportContext) => Check[];
  render: (result: never, report: ReportContext) => string[];
}
