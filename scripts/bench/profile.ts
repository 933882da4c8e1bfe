import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Summarizes a V8 .cpuprofile (what `npm run bench -- --profile` records in the server during W1) by package:
// self time per group (Prisma, Next.js, web streams, gpt-tokenizer, app code, …) and the top functions. The
// production build bundles modules into .next/server/chunks; each frame there is mapped back to its original
// file through the chunk's source map, so the groups are the real packages, not "a chunk".
//
// Standalone: npx tsx scripts/bench/profile.ts <file.cpuprofile> [<checkout root>]

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time, idle excluded. */
  busyMs: number;
  idleMs: number;
  groups: { group: string; ms: number; share: number }[];
  top: { fn: string; where: string; group: string; ms: number; share: number }[];
}

/** The group a source path belongs to. */
export function groupOf(source: string, functionName = ""): string {
  if (!source) {
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(program)") return "V8 (program)";
    if (functionName === "(idle)") return "idle";
    return "V8 / native";
  }
  // The only WebAssembly in the server is Prisma's query compiler (query_compiler_fast_bg.*.wasm).
  if (source.startsWith("wasm:")) return "Prisma (query compiler, wasm)";
  if (/node:internal\/webstreams|internal\/webstreams/.test(source)) return "web streams";
  if (/^node:|^internal\//.test(source)) return "Node.js core";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  if (pkg) {
    if (pkg.startsWith("@prisma/adapter")) return "Prisma (driver adapter)";
    if (pkg.startsWith("@prisma/") || pkg === ".prisma" || pkg === "prisma") return "Prisma";
    if (pkg === "next" || pkg.startsWith("@next/")) return "Next.js";
    if (pkg === "react" || pkg === "react-dom" || pkg === "scheduler") return "React";
    if (pkg === "better-sqlite3" || pkg === "pg" || pkg.startsWith("pg-")) return "database driver";
    if (pkg === "next-auth" || pkg === "jose" || pkg === "@panva/hkdf" || pkg === "openid-client")
      return "next-auth / jose";
    if (pkg === "openai") return "OpenAI SDK";
    return pkg;
  }
  if (/lib\/generated\//.test(source)) return "Prisma";
  if (/(^|\/)(lib|app|components)\//.test(source)) return "app code";
  if (/\.next\//.test(source)) return "Next.js build (unmapped)";
  return "other";
}

const maps = new Map<string, SourceMap | null>();

function mapFor(file: string): SourceMap | null {
  if (maps.has(file)) return maps.get(file) ?? null;
  let map: SourceMap | null = null;
  try {
    if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
  } catch {
    map = null;
  }
  maps.set(file, map);
  return map;
}

/** The original source of a frame: through the chunk's source map when it has one. */
function sourceOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return "";
  if (!url.startsWith("file://") && !url.startsWith("/")) return url;
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const map = /\.next\//.test(file) ? mapFor(file) : null;
  if (map) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string };
    if (entry?.originalSource)
      return decodeURIComponent(entry.originalSource.replace(/^.*?\[project\]\//, ""));
  }
  return file;
}

export function summarizeProfile(file: string, root = process.cwd(), topN = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // A native frame (no URL: a C++ binding such as better-sqlite3's Statement.run, or a socket write) counts for
  // the package whose JavaScript called it; one called from the driver or its adapter counts as the driver.
  const groupMemo = new Map<number, string>();
  const groupOfNode = (id: number): string => {
    const known = groupMemo.get(id);
    if (known) return known;
    const frame = byId.get(id)?.callFrame;
    let group = "other";
    if (frame) {
      const source = sourceOf(frame);
      if (source.endsWith("scripts/bench/probe.cjs")) group = "benchmark probe (excluded)";
      else if (source || /^\(.*\)$/.test(frame.functionName)) group = groupOf(source, frame.functionName);
      else {
        const up = parent.get(id);
        const caller = up === undefined ? "V8 / native" : groupOfNode(up);
        // lib/db/client.ts's statement cache calls the driver on the adapter's behalf.
        const callerSource = up === undefined ? "" : sourceOf(byId.get(up)?.callFrame ?? frame);
        group =
          caller === "Prisma (driver adapter)" || callerSource.endsWith("lib/db/client.ts")
            ? "database driver"
            : caller;
      }
    }
    groupMemo.set(id, group);
    return group;
  };
  // Everything under the probe (the profiler stopping and serializing itself) is left out.
  const underProbe = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? "";
      if (url.endsWith("probe.cjs")) return true;
    }
    return false;
  };
  const groups = new Map<string, number>();
  const fns = new Map<string, { fn: string; where: string; group: string; us: number }>();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || underProbe(id)) continue;
    const source = sourceOf(frame);
    const group = groupOfNode(id);
    if (group === "idle") {
      idle += us;
      continue;
    }
    groups.set(group, (groups.get(group) ?? 0) + us);
    const where = source ? path.relative(root, source).replace(/^(\.\.\/)+/, "") : "";
    const key = `${frame.functionName}\0${where}`;
    const f = fns.get(key) ?? { fn: frame.functionName || "(anonymous)", where, group, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const busy = [...groups.values()].reduce((a, b) => a + b, 0);
  return {
    busyMs: busy / 1000,
    idleMs: idle / 1000,
    groups: [...groups]
      .sort((a, b) => b[1] - a[1])
      .map(([group, us]) => ({ group, ms: us / 1000, share: us / busy })),
    top: [...fns.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, topN)
      .map((f) => ({ fn: f.fn, where: f.where, group: f.group, ms: f.us / 1000, share: f.us / busy })),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, root] = process.argv.slice(2);
  if (!file) {
    console.error("usage: npx tsx scripts/bench/profile.ts <file.cpuprofile> [<checkout root>]");
    process.exit(2);
  }
  const s = summarizeProfile(file, root);
  console.log(`busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms`);
  for (const g of s.groups)
    console.log(`${(g.share * 100).toFixed(1).padStart(5)} %  ${g.ms.toFixed(0).padStart(6)} ms  ${g.group}`);
  console.log("");
  for (const f of s.top)
    console.log(`${(f.share * 100).toFixed(1).padStart(5)} %  ${f.fn}  ${f.where}  [${f.group}]`);
}
