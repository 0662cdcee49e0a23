import { colorize } from "./colorstring.js";

describe("colorize", () => {
  test("known codes become escape sequences and a reset is appended, as colorstring's Color with Reset", () => {
    expect(colorize("  [green]+[reset]", true)).toBe("  \x1b[32m+\x1b[0m\x1b[0m");
    expect(colorize("[bold][red]Error: [reset]", true)).toBe("\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m");
    expect(colorize("[dark_gray]# (1 unchanged attribute hidden)[reset]", true)).toBe("\x1b[90m# (1 unchanged attribute hidden)\x1b[0m\x1b[0m");
    expect(colorize("%s[underline]%s[reset]%s", true)).toBe("%s\x1b[4m%s\x1b[0m%s\x1b[0m");
  });

  test("text without a known code is returned as it is (no reset), unknown words in brackets are kept", () => {
    expect(colorize("   ", true)).toBe("   ");
    expect(colorize("random_id.a[0]: Creating... [id=x]", true)).toBe("random_id.a[0]: Creating... [id=x]");
    expect(colorize("[bold]random_id.a[0][reset]", true)).toBe("\x1b[1mrandom_id.a[0]\x1b[0m\x1b[0m");
    expect(colorize("[Bold] [not_a_colour]", true)).toBe("[Bold] [not_a_colour]");
  });

  test("disabled: the known codes are removed, nothing added", () => {
    expect(colorize("  [green]+[reset] create", false)).toBe("  + create");
    expect(colorize("[bold]  # a.b[0][reset] will be [bold][red]destroyed[reset]\n", false)).toBe("  # a.b[0] will be destroyed\n");
  });
});
