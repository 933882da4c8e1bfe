import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../lib/paths";
import { BenchError } from "./http";

// `npm run bench -- --compare <git-ref>`: a production build of another commit, made in a temporary git
// worktree under the OS temp directory, so the same workloads can run against both builds in one run. The
// worktree is removed afterwards. `next build` runs under the shared build lock (/tmp/recall-build.lock), unless
// the benchmark itself already runs under it (`flock /tmp/recall-build.lock npm run bench …`): then the lock is
// held by an ancestor process, and taking it again would wait forever.

const BUILD_LOCK = "/tmp/recall-build.lock";

export interface OtherBuild {
  ref: string;
  commit: string;
  /** The worktree's root: its `next start` runs there. */
  root: string;
  /** How node_modules was provided: a hard-linked copy of this checkout's, or `npm ci`. */
  modules: string;
  /** Whether its migrations are the same as this tree's (both dialects). */
  sameMigrations: boolean;
  migrations: { here: number; there: number };
  buildMs: number;
  remove(): void;
}

const git = (args: string[], cwd = ROOT) =>
  execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 })
    .toString()
    .trim();

function run(command: string, args: string[], cwd: string, what: string, env: Record<string, string> = {}) {
  const r = spawnSync(command, args, {
    cwd,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) {
    const out = `${r.stdout?.toString() ?? ""}${r.stderr?.toString() ?? ""}`.trim().split("\n").slice(-30);
    throw new BenchError(`${what} failed (exit ${r.status ?? r.signal}):\n${out.join("\n")}`);
  }
}

/** Whether a process above this one is `flock <lock> …` (so the lock is already ours). */
function lockHeldByAncestor(lock = BUILD_LOCK): boolean {
  let pid = process.ppid;
  for (let depth = 0; pid > 1 && depth < 20; depth++) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (path.basename(cmdline[0] ?? "") === "flock" && cmdline.includes(lock)) return true;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      return false;
    }
  }
  return false;
}

interface LockPackage {
  version?: string;
}

/**
 * Whether this checkout's node_modules can serve the other commit: its lockfile is identical, or every package it
 * pins is pinned here at the same version (this tree only added packages).
 */
export function lockfileCompatible(here: string, there: string): "identical" | "superset" | null {
  if (here === there) return "identical";
  try {
    const a = (JSON.parse(here) as { packages: Record<string, LockPackage> }).packages;
    const b = (JSON.parse(there) as { packages: Record<string, LockPackage> }).packages;
    for (const [name, pkg] of Object.entries(b)) {
      if (name === "") continue; // the root package's own entry lists its dependencies, compared below
      if (a[name]?.version !== pkg.version) return null;
    }
    return "superset";
  } catch {
    return null;
  }
}

/** A digest of a checkout's migrations (both dialects), and how many there are. */
function migrationsOf(root: string): { digest: string; count: number } {
  const hash = createHash("sha256");
  let count = 0;
  for (const dir of ["prisma/migrations", "prisma/postgresql/migrations"]) {
    const base = path.join(root, dir);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const sql = path.join(base, name, "migration.sql");
      if (!existsSync(sql)) continue;
      if (dir === "prisma/migrations") count++;
      hash.update(`${dir}/${name}\0`).update(readFileSync(sql));
    }
  }
  return { digest: hash.digest("hex"), count };
}

/**
 * A checkout that is already built (a directory with .next/BUILD_ID, e.g. another copy of the tree with a change
 * being measured): used as it is — not built, not removed. Its label is the directory's name.
 */
function builtCheckout(dir: string): OtherBuild {
  const root = path.resolve(dir);
  const here = migrationsOf(ROOT);
  const there = migrationsOf(root);
  return {
    ref: dir,
    commit: path.basename(root),
    root,
    modules: "the checkout's own",
    sameMigrations: here.digest === there.digest,
    migrations: { here: here.count, there: there.count },
    buildMs: 0,
    remove: () => {},
  };
}

export function prepareOther(ref: string, log: (m: string) => void): OtherBuild {
  if (existsSync(path.join(ref, ".next", "BUILD_ID"))) return builtCheckout(ref);
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  } catch {
    throw new BenchError(`--compare ${ref}: not a commit of this repository`);
  }
  const root = mkdtempSync(path.join(os.tmpdir(), `recall-compare-${commit.slice(0, 8)}-`));
  rmSync(root, { recursive: true, force: true }); // git worktree add wants to create it
  log(`--compare: worktree of ${ref} (${commit.slice(0, 12)}) in ${root} …`);
  git(["worktree", "add", "--detach", root, commit]);
  const remove = () => {
    try {
      git(["worktree", "remove", "--force", root]);
    } catch {
      rmSync(root, { recursive: true, force: true });
      try {
        git(["worktree", "prune"]);
      } catch {
        // nothing more to do
      }
    }
  };
  try {
    const started = performance.now();
    const compatible = lockfileCompatible(
      readFileSync(path.join(ROOT, "package-lock.json"), "utf8"),
      readFileSync(path.join(root, "package-lock.json"), "utf8"),
    );
    let modules = "";
    if (compatible) {
      // Hard links, not a symlink: Turbopack refuses a node_modules that resolves outside the project root. A
      // hard-linked copy of ~1 GB takes seconds and no space (same filesystem; else `cp` fails and npm ci runs).
      try {
        run("cp", ["-al", path.join(ROOT, "node_modules"), path.join(root, "node_modules")], ROOT, "cp -al");
        modules = `hard-linked copy of this checkout's node_modules (lockfile ${compatible})`;
      } catch {
        rmSync(path.join(root, "node_modules"), { recursive: true, force: true });
        run("npm", ["ci", "--no-audit", "--no-fund"], root, "npm ci");
        modules = "npm ci (node_modules could not be hard-linked)";
      }
    } else {
      log("--compare: the lockfiles differ: npm ci in the worktree (this takes a while) …");
      run("npm", ["ci", "--no-audit", "--no-fund"], root, "npm ci");
      modules = "npm ci (lockfile differs)";
    }
    // Its own Prisma client, generated from its own schema into its own tree (what its postinstall does).
    run(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/generate.ts"], root, "prisma generate");
    const held = lockHeldByAncestor();
    log(
      `--compare: building ${commit.slice(0, 12)} (${held ? "build lock already held" : `under ${BUILD_LOCK}`}) …`,
    );
    if (held) run("npm", ["run", "build"], root, `next build of ${ref}`);
    else run("flock", [BUILD_LOCK, "npm", "run", "build"], root, `next build of ${ref}`);
    const here = migrationsOf(ROOT);
    const there = migrationsOf(root);
    return {
      ref,
      commit,
      root,
      modules,
      sameMigrations: here.digest === there.digest,
      migrations: { here: here.count, there: there.count },
      buildMs: performance.now() - started,
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Migrates a new database with the other commit's own migration script and migrations. */
export function migrateWithOther(other: OtherBuild, url: string): void {
  run(
    path.join(other.root, "node_modules", ".bin", "tsx"),
    ["scripts/migrate.ts", "deploy"],
    other.root,
    `migrations of ${other.ref}`,
    { DATABASE_URL: url },
  );
}
