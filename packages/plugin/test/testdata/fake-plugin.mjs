#!/usr/bin/env node
// Fixture: a tiny go-plugin gRPC server (plaintext HTTP/2 on a unix socket) written with
// node:http2 alone. It negotiates like go-plugin, serves plugin.GRPCStdio/StreamStdio (one
// stderr chunk), plugin.GRPCController/Shutdown and grpc.health.v1.Health/Check, and
// answers UNIMPLEMENTED for everything else. FAKE_MODE:
//   normal           Shutdown stops the server and exits 0 (the reply never arrives)
//   ignore-shutdown  Shutdown replies OK but the process keeps running
//   crash-later      prints a Go-style panic on stderr 300 ms after the handshake, exits 2
// FAKE_NETWORK=tcp listens on 127.0.0.1 at the first free port in [PLUGIN_MIN_PORT,
// PLUGIN_MAX_PORT] instead of a unix socket, as go-plugin does on Windows.
import http2 from "node:http2";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { rmSync } from "node:fs";

process.on("SIGINT", () => {}); // Providers ignore SIGINT.
const mode = process.env.FAKE_MODE ?? "normal";
if (process.env.TF_PLUGIN_MAGIC_COOKIE !== "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2") {
  process.stderr.write("This binary is a plugin. These are not meant to be executed directly.\n");
  process.exit(1);
}
const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS ?? "").split(",").map(Number);
const version = [6, 5].find((v) => offered.includes(v)) ?? 5;
const socket = join(process.env.PLUGIN_UNIX_SOCKET_DIR || tmpdir(), `plugin${process.pid}`);

function frame(bytes) {
  const out = Buffer.alloc(5 + bytes.length);
  out.writeUInt32BE(bytes.length, 1);
  Buffer.from(bytes).copy(out, 5);
  return out;
}
function reply(stream, messages, status = 0, end = true) {
  stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
  stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(status) }));
  for (const m of messages) stream.write(frame(m));
  if (end) stream.end();
}

const server = http2.createServer();
server.on("stream", (stream, headers) => {
  stream.on("error", () => {});
  const path = headers[":path"];
  stream.resume();
  if (path === "/plugin.GRPCStdio/StreamStdio") {
    const data = Buffer.from("hello from the stdio stream\n");
    // StdioData{channel: STDERR(2), data}
    reply(stream, [Buffer.concat([Buffer.from([0x08, 0x02, 0x12, data.length]), data])], 0, false);
  } else if (path === "/plugin.GRPCController/Shutdown") {
    if (mode === "ignore-shutdown") {
      stream.on("end", () => reply(stream, [Buffer.alloc(0)]));
    } else {
      stream.on("end", () => {
        server.close();
        rmSync(socket, { force: true });
        process.exit(0);
      });
    }
  } else if (path === "/grpc.health.v1.Health/Check") {
    stream.on("end", () => reply(stream, [Buffer.from([0x08, 0x01])])); // SERVING
  } else {
    stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12", "grpc-message": "unimplemented" }, { endStream: true });
  }
});
function announce(network, address) {
  process.stderr.write(`{"@level":"debug","@message":"plugin address","address":"${address}","network":"${network}"}\n`);
  process.stdout.write(`1|${version}|${network}|${address}|grpc|\n`);
  if (mode === "crash-later") {
    setTimeout(() => {
      process.stderr.write("panic: something went wrong\n\ngoroutine 7 [running]:\nmain.crash()\n");
      process.exit(2);
    }, 300);
  }
}
if (process.env.FAKE_NETWORK === "tcp") {
  let port = Number(process.env.PLUGIN_MIN_PORT);
  const max = Number(process.env.PLUGIN_MAX_PORT);
  server.on("error", (e) => {
    if (e.code !== "EADDRINUSE" || port >= max) throw e;
    server.listen(++port, "127.0.0.1");
  });
  server.on("listening", () => announce("tcp", `127.0.0.1:${port}`));
  server.listen(port, "127.0.0.1");
} else {
  server.listen(socket, () => announce("unix", socket));
}
