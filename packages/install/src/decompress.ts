import type * as Bz2 from "bz2";
import type * as Xz from "xz-decompress";
import { InstallErrorCode, StepError } from "./install-error.js";

/**
 * Decompresses a `.tar.bz2` or `.tar.xz` module archive to its tar stream, with the libraries
 * loaded on first use (`bz2`, pure JavaScript; `xz-decompress`, xz-embedded compiled to
 * WebAssembly): node has neither format.
 *
 * @throws StepError `bad_archive` for data that is not of the kind.
 */
export async function decompress(archive: Buffer, kind: "tar.bz2" | "tar.xz"): Promise<Buffer> {
  if (kind === "tar.bz2") {
    const bz = (await import("bz2")) as typeof Bz2 & { default?: typeof Bz2 };
    const decode = bz.default?.decompress ?? bz.decompress;
    try {
      const out = decode(archive, true);
      return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
    } catch (e) {
      throw new StepError(InstallErrorCode.BadArchive, `bzip2 data invalid: ${(e as Error).message}`, e);
    }
  }
  const mod = (await import("xz-decompress")) as typeof Xz & { default?: typeof Xz };
  const XzReadableStream = mod.default?.XzReadableStream ?? mod.XzReadableStream;
  try {
    const stream = new XzReadableStream(new Blob([archive]).stream());
    return Buffer.from(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new StepError(InstallErrorCode.BadArchive, `xz: ${(e as Error).message}`, e);
  }
}
