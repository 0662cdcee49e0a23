import { DEFAULT_COLUMNS, terminalColumns, wordWrap } from "./terminal-columns.js";

describe("terminalColumns", () => {
  test("a terminal's width, else terraform's 78", () => {
    const write = (): boolean => true;
    expect(terminalColumns({ isTTY: true, columns: 60, write })).toBe(60);
    expect(terminalColumns({ isTTY: false, columns: 60, write })).toBe(DEFAULT_COLUMNS);
    expect(terminalColumns({ isTTY: true, write })).toBe(78);
    expect(terminalColumns({ isTTY: true, columns: 0, write })).toBe(78);
  });
});

describe("wordWrap", () => {
  test("lines at most width - 1 long, indented lines and long words kept whole", () => {
    expect(wordWrap("aaa bbb ccc ddd", 9)).toBe("aaa bbb\nccc ddd");
    expect(wordWrap("aaa bbb ccc", 12)).toBe("aaa bbb ccc");
    expect(wordWrap("aaa bbb ccc", 11)).toBe("aaa bbb\nccc");
    expect(wordWrap("x\n    indented line that is long\nabcdefghijkl z", 6)).toBe("x\n    indented line that is long\nabcdefghijkl\nz");
    expect(wordWrap("anything", 1)).toBe("anything");
  });
});
