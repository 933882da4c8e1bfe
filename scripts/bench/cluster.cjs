// `npm run bench -- --multi N`: the app as N workers of one Node.js cluster (node:cluster) sharing one port — the
// other way the issue names to use more than one process, without a proxy in between: the primary accepts the
// connections and hands them to the workers round-robin. Each worker runs what `next start` runs (Next's own
// nextStart). Usage: node scripts/bench/cluster.cjs <workers> <port>, from the checkout's root. Benchmark only.
"use strict";

const cluster = require("node:cluster");
const path = require("node:path");

const workers = Number(process.argv[2]);
const port = Number(process.argv[3]);
if (!Number.isInteger(workers) || workers < 1 || !Number.isInteger(port) || port <= 0) {
  console.error("usage: node scripts/bench/cluster.cjs <workers> <port>");
  process.exit(2);
}

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  for (let i = 0; i < workers; i++) cluster.fork();
  // One worker gone is the whole server gone: the benchmark must not measure fewer processes than it says.
  cluster.on("exit", () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill();
    process.exit(1);
  });
  process.on("SIGTERM", () => {
    cluster.removeAllListeners("exit");
    for (const w of Object.values(cluster.workers ?? {})) w?.kill("SIGTERM");
    process.exit(0);
  });
} else {
  const { nextStart } = require(
    path.join(process.cwd(), "node_modules", "next", "dist", "cli", "next-start.js"),
  );
  nextStart({ hostname: "127.0.0.1", port }, process.cwd()).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
