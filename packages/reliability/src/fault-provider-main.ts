/**
 * The fault provider's program: what `terraform-provider-fault` runs. Reads `FAULT_MODE`,
 * `FAULT_OP` and `FAULT_RECORD` (a file that receives one JSON line per event: the
 * environment first, then `call:<op>`, `hang:<op>`, `stop-received`, `returned:<op>`), does
 * the pre-handshake misbehaviours itself and serves {@link createFaultProvider} with
 * `@magma/provider-server`'s `serve()` otherwise.
 *
 * @packageDocumentation
 */
import { appendFileSync, rmSync, writeSync } from "node:fs";
import { serve } from "@magma/provider-server";
import { createFaultProvider } from "./fault-provider.js";
import { FaultMode, isFaultMode, isFaultOperation, type FaultOperation } from "./fault-mode.js";

const modeText = process.env["FAULT_MODE"] ?? FaultMode.Normal;
const opText = process.env["FAULT_OP"];
const recordFile = process.env["FAULT_RECORD"];

function record(event: string, extra: Record<string, unknown> = {}): void {
  if (recordFile === undefined || recordFile === "") return;
  appendFileSync(recordFile, `${JSON.stringify({ event, pid: process.pid, ...extra })}\n`);
}

if (!isFaultMode(modeText)) {
  writeSync(2, `fault provider: unknown FAULT_MODE ${JSON.stringify(modeText)}\n`);
  process.exit(64);
}
if (opText !== undefined && opText !== "" && !isFaultOperation(opText)) {
  writeSync(2, `fault provider: unknown FAULT_OP ${JSON.stringify(opText)}\n`);
  process.exit(64);
}
const mode = modeText;
const operation: FaultOperation | undefined = opText === undefined || opText === "" ? undefined : (opText as FaultOperation);
record("env", { env: { ...process.env } });

const forever = (): void => {
  process.on("SIGINT", () => undefined); // go-plugin servers ignore SIGINT
  setInterval(() => undefined, 60_000);
};

let stopResolve!: () => void;
const stopped = new Promise<void>((resolve) => (stopResolve = resolve));

switch (mode) {
  case FaultMode.Protocol4:
    // A server that speaks only protocol 4 answers with it whatever was offered.
    process.stdout.write(`1|4|unix|${process.env["PLUGIN_UNIX_SOCKET_DIR"] ?? "/tmp"}/plugin-v4|grpc|\n`);
    forever();
    break;
  case FaultMode.NoHandshake:
    writeSync(2, "[INFO] fault provider: starting, but never printing the handshake\n");
    forever();
    break;
  default: {
    if (mode === FaultMode.GarbageStdout) process.stdout.write("Starting the fault provider (this line should not be here)\n");
    const env: Record<string, string | undefined> = { ...process.env };
    if (mode === FaultMode.WrongCookie) env["TF_PLUGIN_MAGIC_COOKIE"] = `wrong-${env["TF_PLUGIN_MAGIC_COOKIE"] ?? ""}`;
    const stdout =
      mode === FaultMode.DeleteSocket
        ? {
            write(text: string): void {
              const address = text.split("|")[3];
              if (address !== undefined) rmSync(address, { force: true });
              writeSync(1, text);
            },
          }
        : mode === FaultMode.ExtraStdout
          ? {
              write(text: string): void {
                writeSync(1, `${text}extra line after the handshake\n${"x".repeat(200_000)}\n`);
              },
            }
          : process.stdout;
    const stderr = {
      write(text: string): void {
        if (text.includes('"tf_rpc":"StopProvider"')) {
          record("stop-received");
          stopResolve();
        }
        process.stderr.write(text);
      },
    };
    const provider = createFaultProvider({
      mode,
      operation,
      hooks: {
        panic(op) {
          writeSync(
            2,
            `panic: fault injected during ${op}\n\ngoroutine 42 [running]:\nmain.(*faultProvider).${op}(...)\n\t/fault/provider.go:42 +0x1d\nmain.main()\n\t/fault/main.go:10 +0x25\n`,
          );
          process.exit(2);
        },
        sigkill(op) {
          writeSync(2, `[WARN] fault provider: SIGKILL during ${op}\n`);
          process.kill(process.pid, "SIGKILL");
          throw new Error("unreachable: SIGKILL did not end the process");
        },
        stopped: () => stopped,
        record: (event) => record(event),
      },
    });
    await serve(provider, { env, stdout, stderr, logLevel: "debug", name: "provider.terraform-provider-fault" });
  }
}
