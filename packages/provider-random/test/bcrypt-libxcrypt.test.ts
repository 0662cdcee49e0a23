/**
 * Cross-checks the package's bcrypt against the system's crypt(3) (libxcrypt), reached through
 * Perl's `crypt`, on random passwords and salts. Skipped (not passed) where Perl is absent or
 * its crypt does not support bcrypt.
 */
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { bcryptCompare, bcryptHash } from "../src/bcrypt.js";

function perlCrypt(password: string, setting: string): string | undefined {
  try {
    return execFileSync(
      "perl",
      ["-e", 'binmode STDIN; local $/; my $p = <STDIN>; print crypt($p, $ARGV[0]) // ""', setting],
      {
        input: Buffer.from(password, "utf8"),
        encoding: "utf8",
        timeout: 30000,
      },
    );
  } catch {
    return undefined;
  }
}

const probe = perlCrypt("U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.");
const d =
  probe === "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    ? describe
    : describe.skip;

d("bcrypt against libxcrypt", () => {
  test("hashes agree on random passwords and salts (cost 4)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 90, unit: "grapheme" }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        (password, salt) => {
          const ours = bcryptHash(password, 4, salt);
          const theirs = perlCrypt(password, ours.slice(0, 29));
          expect(theirs).toBe(ours);
          expect(bcryptCompare(ours, password)).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});
