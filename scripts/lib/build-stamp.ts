import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./paths";

// Which source a `.next` build was made from. `npm run build` and the e2e runner record it beside the build
// (.next/recall-build.json); `npm run bench` refuses a build that is not of the working tree it runs in. A tree
// with uncommitted changes is identified by a fingerprint of those changes, so a build of a dirty tree still
// matches that same tree (and is flagged as such), and no longer matches once anything changes.

export interface SourceState {
  commit: string;
  dirty: boolean;
  /** sha256 of HEAD, the diff against HEAD and every untracked, non-ignored file. */
  fingerprint: string;
}

export interface BuildStamp extends SourceState {
  buildId: string;
  builtAt: string;
}

const nextDir = (root: string) => path.join(root, ".next");
const stampPath = (root = ROOT) => path.join(nextDir(root), "recall-build.json");
export const buildIdPath = (root = ROOT) => path.join(nextDir(root), "BUILD_ID");

/** The state of the source tree at `root`, or null outside a git checkout (or without git). */
export function sourceState(root = ROOT): SourceState | null {
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: root, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 30 });
  try {
    const commit = git("rev-parse", "HEAD").toString().trim();
    const status = git("status", "--porcelain=v1", "-z", "--untracked-files=all");
    const hash = createHash("sha256").update(commit);
    if (status.length > 0) {
      hash.update(git("diff", "HEAD", "--binary"));
      const untracked = git("ls-files", "--others", "--exclude-standard", "-z").toString().split("\0");
      for (const file of untracked.filter(Boolean).sort()) {
        hash.update(`\0${file}\0`);
        hash.update(readFileSync(path.join(root, file)));
      }
    }
    return { commit, dirty: status.length > 0, fingerprint: hash.digest("hex") };
  } catch {
    return null;
  }
}

/** Records that the build now in .next was made from `state` (taken before the build started). */
export function writeBuildStamp(state: SourceState | null, root = ROOT): void {
  if (!state) return;
  const stamp: BuildStamp = {
    ...state,
    buildId: readFileSync(buildIdPath(root), "utf8").trim(),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(stampPath(root), `${JSON.stringify(stamp, null, 2)}\n`);
}

function readBuildStamp(root = ROOT): BuildStamp | null {
  try {
    return JSON.parse(readFileSync(stampPath(root), "utf8")) as BuildStamp;
  } catch {
    return null;
  }
}

const label = (s: { commit: string; dirty: boolean }) =>
  `${s.commit.slice(0, 12)}${s.dirty ? " with uncommitted changes" : ""}`;

/**
 * Whether the .next build is of the source tree at `root` now: `problem` says why not (with what to do),
 * `warning` flags a build that matches but came from uncommitted changes, or that cannot be checked.
 */
export function checkBuild(root = ROOT): { problem?: string; warning?: string; stamp?: BuildStamp } {
  if (!existsSync(buildIdPath(root))) {
    return { problem: "No production build in .next (.next/BUILD_ID is missing): run npm run build." };
  }
  const now = sourceState(root);
  if (!now) return { warning: "not a git checkout: cannot tell which source the .next build is of" };
  const stamp = readBuildStamp(root);
  if (!stamp) {
    return {
      problem: `The .next build does not say which source it was built from (.next/recall-build.json is missing; it was not made by npm run build). HEAD is ${label(now)}: run npm run build.`,
    };
  }
  if (stamp.buildId !== readFileSync(buildIdPath(root), "utf8").trim()) {
    return {
      problem: "The .next build was replaced after npm run build recorded its source: run npm run build.",
    };
  }
  if (stamp.fingerprint !== now.fingerprint) {
    const since = stamp.commit === now.commit ? " (files changed since the build)" : "";
    return {
      problem: `the .next build is of ${label(stamp)}, HEAD is ${label(now)}${since}: run npm run build.`,
      stamp,
    };
  }
  return stamp.dirty
    ? { stamp, warning: `the .next build is of ${label(stamp)} (the same changes as now)` }
    : { stamp };
}
