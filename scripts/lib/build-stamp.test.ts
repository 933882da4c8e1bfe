import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIdPath, checkBuild, sourceState, writeBuildStamp } from "./build-stamp";

// A throwaway git repository with a fake .next build in it.
let root: string;
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.test", "-c", "user.name=t", ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "ignore"],
  })
    .toString()
    .trim();
const write = (file: string, text: string) => writeFileSync(path.join(root, file), text);
const build = (id: string) => {
  const state = sourceState(root);
  mkdirSync(path.join(root, ".next"), { recursive: true });
  writeFileSync(buildIdPath(root), id);
  writeBuildStamp(state, root);
};

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "recall-stamp-"));
  git("init", "-q");
  write(".gitignore", ".next/\n");
  write("a.ts", "one\n");
  git("add", ".");
  git("commit", "-qm", "first");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the build record npm run bench checks", () => {
  it("accepts a build of HEAD from a clean tree", () => {
    build("b1");
    const result = checkBuild(root);
    expect(result.problem).toBeUndefined();
    expect(result.warning).toBeUndefined();
    expect(result.stamp).toMatchObject({ commit: git("rev-parse", "HEAD"), dirty: false, buildId: "b1" });
  });

  it("refuses a build without a record, and a missing build", () => {
    expect(checkBuild(root).problem).toMatch(/No production build.*run npm run build/);
    mkdirSync(path.join(root, ".next"));
    writeFileSync(buildIdPath(root), "b0");
    expect(checkBuild(root).problem).toMatch(/does not say which source.*run npm run build/);
  });

  it("refuses a build of another commit, naming both", () => {
    build("b1");
    const built = git("rev-parse", "HEAD");
    write("a.ts", "two\n");
    git("commit", "-qam", "second");
    const head = git("rev-parse", "HEAD");
    expect(checkBuild(root).problem).toBe(
      `the .next build is of ${built.slice(0, 12)}, HEAD is ${head.slice(0, 12)}: run npm run build.`,
    );
  });

  it("refuses a clean build once the tree has uncommitted or untracked changes", () => {
    build("b1");
    write("a.ts", "edited\n");
    expect(checkBuild(root).problem).toMatch(
      /HEAD is \w+ with uncommitted changes \(files changed since the build\): run npm run build/,
    );
    write("a.ts", "one\n");
    expect(checkBuild(root).problem).toBeUndefined();
    write("new.ts", "untracked\n");
    expect(checkBuild(root).problem).toMatch(/HEAD is \w+ with uncommitted changes/);
  });

  it("flags a build of a dirty tree, and refuses it as soon as the changes differ", () => {
    write("a.ts", "edited\n");
    build("b1");
    expect(checkBuild(root)).toMatchObject({ warning: expect.stringMatching(/with uncommitted changes/) });
    expect(checkBuild(root).problem).toBeUndefined();
    write("a.ts", "edited again\n");
    expect(checkBuild(root).problem).toMatch(
      /is of \w+ with uncommitted changes, HEAD is \w+ with uncommitted changes \(files changed since the build\)/,
    );
  });

  it("refuses a build replaced after its record was written", () => {
    build("b1");
    writeFileSync(buildIdPath(root), "b2");
    expect(checkBuild(root).problem).toMatch(/replaced/);
  });
});
