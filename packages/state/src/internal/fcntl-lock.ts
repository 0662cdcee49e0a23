import { createRequire } from "node:module";
import type * as KoffiModule from "koffi";
import { StateError } from "../state-error.js";

/**
 * POSIX record locks (`fcntl(F_SETLK)` over the whole file), the lock Terraform's local
 * backend takes on `terraform.tfstate` (`statemgr.Filesystem.lock`), so that magma and
 * terraform exclude each other. Node has no fcntl, so libc's is called through koffi (an FFI
 * with prebuilt binaries, no compiler needed). Linux only for now (glibc/musl, any CPU using
 * the generic `struct flock` layout).
 *
 * Semantics worth knowing, all from POSIX: the lock belongs to the process, goes away when the
 * process ends (even when killed), and ANY close of ANY descriptor of the file by the process
 * releases it — so while locked, every read and write must go through the locked descriptor.
 *
 * @internal
 */
export interface FcntlLocker {
  /** Takes a write lock on the whole file without waiting; false when another process holds a conflicting lock. */
  tryLock(fd: number): boolean;
  /** Releases this process's lock on the file. */
  unlock(fd: number): void;
  /** The pid of a process holding a conflicting lock, or undefined when none does. */
  holder(fd: number): number | undefined;
}

const F_GETLK = 5;
const F_SETLK = 6;
const F_WRLCK = 1;
const F_UNLCK = 2;
const EACCES = 13;
const EAGAIN = 11;

interface Flock {
  l_type: number;
  l_whence: number;
  l_start: number;
  l_len: number;
  l_pid: number;
}

let cached: FcntlLocker | undefined;

function loadLibc(koffi: typeof KoffiModule): ReturnType<typeof KoffiModule.load> {
  // glibc, then musl (Alpine) under its usual names.
  const names = ["libc.so.6", `libc.musl-${process.arch === "x64" ? "x86_64" : process.arch === "arm64" ? "aarch64" : process.arch}.so.1`, "libc.so"];
  let last: unknown;
  for (const name of names) {
    try {
      return koffi.load(name);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

/** The process-wide fcntl locker (loads libc on first use). */
export function fcntlLocker(): FcntlLocker {
  if (cached !== undefined) return cached;
  if (process.platform !== "linux") {
    throw new StateError("io", `file locking compatible with Terraform is implemented for Linux only, not ${process.platform}`);
  }
  type Koffi = typeof KoffiModule;
  let koffi: Koffi;
  let fcntl: (...args: unknown[]) => number;
  let flockPtr: unknown;
  try {
    koffi = createRequire(import.meta.url)("koffi") as Koffi;
    const libc = loadLibc(koffi);
    // struct flock { short l_type; short l_whence; off_t l_start; off_t l_len; pid_t l_pid; } (64-bit off_t)
    // Anonymous: koffi's type names are global to the process, and this module may be loaded twice.
    flockPtr = koffi.pointer(koffi.struct({ l_type: "short", l_whence: "short", l_start: "int64_t", l_len: "int64_t", l_pid: "int" }));
    fcntl = libc.func("int fcntl(int fd, int cmd, ...)") as unknown as (...args: unknown[]) => number;
  } catch (e) {
    throw new StateError("io", `cannot load libc's fcntl for state locking: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const call = (fd: number, cmd: number, lock: Flock): number => fcntl(fd, cmd, flockPtr, lock);
  const whole = (type: number): Flock => ({ l_type: type, l_whence: 0, l_start: 0, l_len: 0, l_pid: 0 });
  cached = {
    tryLock(fd) {
      if (call(fd, F_SETLK, whole(F_WRLCK)) === 0) return true;
      const err = koffi.errno();
      if (err === EAGAIN || err === EACCES) return false;
      throw new StateError("io", `fcntl(F_SETLK) failed with errno ${err}`);
    },
    unlock(fd) {
      if (call(fd, F_SETLK, whole(F_UNLCK)) !== 0) throw new StateError("io", `fcntl(F_SETLK, F_UNLCK) failed with errno ${koffi.errno()}`);
    },
    holder(fd) {
      const probe = whole(F_WRLCK);
      const out: Flock[] = [probe];
      // koffi copies an object passed by pointer back when it is wrapped in an array ([in/out]).
      if (fcntl(fd, F_GETLK, koffi.inout(flockPtr as Parameters<Koffi["inout"]>[0]), out) !== 0) return undefined;
      const res = out[0]!;
      return res.l_type === F_UNLCK ? undefined : res.l_pid;
    },
  };
  return cached;
}
