// A preload for the benchmark's `next start` servers (NODE_OPTIONS=--require <this file>), never part of the app.
// It measures from inside the server process what the benchmark cannot see from outside: event-loop delay
// (perf_hooks.monitorEventLoopDelay) and, on request, a CPU profile (the inspector's Profiler).
//
// RECALL_BENCH_PROBE_DIR names a directory. At start the process writes `pid-<pid>` there. On SIGUSR2 it reads
// `<dir>/command` and does what it says:
//   mark            write the event-loop delay since the last mark to `loop-<pid>-<n>.json`, then start afresh
//   profile-start   start the CPU profiler
//   profile-stop    stop it and write `cpu-<pid>.cpuprofile`
// and then writes `ack-<pid>-<n>` (n counts the signals), so the benchmark knows the command is done.
"use strict";

const dir = process.env.RECALL_BENCH_PROBE_DIR;
// NODE_OPTIONS' --require also runs in worker threads (the SQLite checkpoint worker): only the main thread measures.
if (dir && require("node:worker_threads").isMainThread) {
  const fs = require("node:fs");
  const path = require("node:path");
  const { monitorEventLoopDelay } = require("node:perf_hooks");

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let since = Date.now();
  let signals = 0;
  let session = null;
  const ns = (v) => v / 1e6;

  fs.writeFileSync(path.join(dir, `pid-${process.pid}`), "");

  const mark = (n) => {
    const now = Date.now();
    const stats = {
      pid: process.pid,
      wallMs: now - since,
      samples: histogram.count,
      maxMs: ns(histogram.max),
      p99Ms: ns(histogram.percentile(99)),
      p50Ms: ns(histogram.percentile(50)),
      meanMs: ns(histogram.mean),
    };
    fs.writeFileSync(path.join(dir, `loop-${process.pid}-${n}.json`), JSON.stringify(stats));
    histogram.reset();
    since = now;
  };

  const ack = (n, error) =>
    fs.writeFileSync(path.join(dir, `ack-${process.pid}-${n}`), error ? String(error) : "");

  process.on("SIGUSR2", () => {
    const n = ++signals;
    let command = "";
    try {
      command = fs.readFileSync(path.join(dir, "command"), "utf8").trim();
    } catch (error) {
      ack(n, error);
      return;
    }
    if (command === "mark") {
      mark(n);
      ack(n);
    } else if (command === "profile-start") {
      const inspector = require("node:inspector");
      session = new inspector.Session();
      session.connect();
      session.post("Profiler.enable", () =>
        session.post("Profiler.setSamplingInterval", { interval: 200 }, () =>
          session.post("Profiler.start", (error) => ack(n, error)),
        ),
      );
    } else if (command === "profile-stop" && session) {
      const s = session;
      session = null;
      s.post("Profiler.stop", (error, result) => {
        if (!error)
          fs.writeFileSync(path.join(dir, `cpu-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
        s.disconnect();
        ack(n, error);
      });
    } else {
      ack(n, `unknown command ${command}`);
    }
  });
}
