#!/usr/bin/env node
// Fixture: a process that is not a go-plugin server. FIXTURE_MODE selects the misbehaviour:
//   garbage       prints a non-handshake line on stdout, then keeps running
//   exit-early    logs to stderr, crashes like a Go panic (exit 2) before any handshake
//   exit-quietly  exits 3 without printing anything
//   wrong-version answers with protocol version 4 (never offered), then keeps running
//   silent        never prints anything and keeps running (handshake timeout)
//   long-line     prints a first stdout line longer than 64 KiB without a newline
//   env           writes its environment (plus FIXTURE_SOCKET_DIR_MODE, the octal mode of
//                 PLUGIN_UNIX_SOCKET_DIR) as JSON to FIXTURE_ENV_FILE, then exits 0
process.on("SIGINT", () => {}); // Providers ignore SIGINT.
const mode = process.env.FIXTURE_MODE ?? "garbage";
const forever = () => setInterval(() => {}, 60_000);
switch (mode) {
  case "garbage":
    process.stdout.write("hello, I am not a plugin\n");
    forever();
    break;
  case "exit-early":
    process.stderr.write('{"@level":"info","@message":"starting up","@timestamp":"2026-01-01T00:00:00.000000Z"}\n');
    process.stderr.write("[WARN] about to fail\n");
    process.stderr.write("panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:10 +0x1d\n");
    process.exitCode = 2;
    break;
  case "exit-quietly":
    process.exitCode = 3;
    break;
  case "wrong-version":
    process.stdout.write(`1|4|unix|${process.env.PLUGIN_UNIX_SOCKET_DIR}/plugin1|grpc|\n`);
    forever();
    break;
  case "silent":
    forever();
    break;
  case "long-line":
    process.stdout.write("x".repeat(70 * 1024));
    forever();
    break;
  case "env":
  {
    const fs = await import("node:fs");
    const dir = process.env.PLUGIN_UNIX_SOCKET_DIR;
    const socketDirMode = (fs.statSync(dir).mode & 0o777).toString(8);
    fs.writeFileSync(process.env.FIXTURE_ENV_FILE, JSON.stringify({ ...process.env, FIXTURE_SOCKET_DIR_MODE: socketDirMode }));
  }
    break;
  default:
    process.stderr.write(`unknown FIXTURE_MODE ${mode}\n`);
    process.exitCode = 64;
}
