// A minimal round-robin HTTP proxy for the benchmark's multi-process W2 (`npm run bench -- --multi 2`), run as its
// own process so its CPU is neither the client's nor a server's: `node scripts/bench/proxy.mjs <port> <port> …`.
// Loopback only. Each request goes to the next instance in turn, streamed both ways (answers are server-sent
// events), with X-Forwarded-For appended as a real proxy would. Prints "listening <port>" once it accepts.
import http from "node:http";

const ports = process.argv.slice(2).map(Number);
if (ports.length === 0 || ports.some((p) => !Number.isInteger(p) || p <= 0)) {
  console.error("usage: node scripts/bench/proxy.mjs <port> [<port> …]");
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
let next = 0;
const server = http.createServer((req, res) => {
  const port = ports[next++ % ports.length];
  const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
  const upstream = http.request(
    {
      host: "127.0.0.1",
      port,
      method: req.method,
      path: req.url,
      agent,
      headers: { ...req.headers, "x-forwarded-for": forwarded },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
    res.end('{"error":{"code":"bad_gateway","message":"instance unreachable"}}');
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${server.address().port}`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
