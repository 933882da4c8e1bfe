import http from "node:http";

// Route handlers under `next start` never see the socket, and Next fills X-Forwarded-For from it only when the
// request has none, so without a proxy in front a client chose its own rate-limit key. At server start this stamps
// every request with the socket's address under a header of ours, overwriting whatever a client sent under that
// name; lib/security/client-ip.ts trusts it when no proxy hops are configured (docs/decisions/024).

export const PEER_HEADER = "x-recall-peer";

const STAMPED = Symbol.for("recall.peerAddressStamped");

type Emit = (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;

/** Installs the stamp on every HTTP server of this process, once. */
export function stampPeerAddresses(): void {
  const proto = http.Server.prototype as unknown as { emit: Emit; [STAMPED]?: boolean };
  if (proto[STAMPED]) return;
  proto[STAMPED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event, ...args) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "unknown";
    }
    return emit.call(this, event, ...args);
  };
}
