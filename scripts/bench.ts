import { parseOptions, USAGE } from "./bench/config";
import { BenchError } from "./bench/http";
import { assertBuilt } from "./bench/server";
import { log } from "./bench/setup";

// npm run bench [-- --quick] [-- --db sqlite|postgres|<url>]: the benchmark (decision 006). It creates and seeds its
// own database, counts the statements of a turn in-process, then serves the existing production build with
// `next start` and measures over HTTP as signed-in users. Every workload is one file under scripts/bench/registry/
// (W1 turn cost vs history length, W1B on branches, W1F with long-term facts, W2 concurrency, W3 streaming
// overhead, W4 the admin API at scale, W5 deleting a long session, W6 many open streams, W7 images, the /v1
// API turn against a web turn, --multi, --profile); scripts/bench/runner.ts runs them phase by phase and prints one
// report. `--quick` is the smoke run `npm test` ends with: it checks the invariants, it does not measure.
// It never builds and never takes the build lock.

async function main(argv: string[]): Promise<number> {
  if (argv.includes("--flood")) return (await import("./bench/flood")).runFlood(argv).then(() => 0);
  if (argv.includes("--attachments")) return (await import("./bench/attachments")).runAttachmentsBench(argv);
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const build = assertBuilt(log);
  if (options.compare) return (await import("./bench/compare-run")).runCompare(options, options.compare);
  return (await import("./bench/runner")).runBench(options, build);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof BenchError ? `bench: ${e.message}` : e);
    process.exit(1);
  },
);
