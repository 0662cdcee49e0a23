// Its own module so that `magma validate`'s help text does not load the provider installer.

/** The platform directory name (`linux_amd64`). */
export function platformName(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = ({ x64: "amd64", ia32: "386", arm64: "arm64", arm: "arm" } as Record<string, string>)[process.arch] ?? process.arch;
  return `${os}_${arch}`;
}
