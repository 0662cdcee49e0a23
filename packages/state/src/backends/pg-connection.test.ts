import { pgClientConfig } from "./pg-connection.js";
import { isStateError } from "../state-error.js";

function refusal(connStr: string, env: Record<string, string> = {}): string {
  try {
    pgClientConfig(connStr, env);
  } catch (e) {
    if (isStateError(e) && e.code === "io") return e.message;
    throw e;
  }
  throw new Error(`expected ${connStr} to be refused`);
}

describe("pgClientConfig", () => {
  test("reads a postgres:// URL, percent-decoding its parts", () => {
    const c = pgClientConfig("postgres://al%40ice:p%2Fss@db.example.com:6543/tf%20state?sslmode=disable&application_name=app&connect_timeout=7", {});
    expect(c).toEqual({ host: "db.example.com", port: 6543, user: "al@ice", password: "p/ss", database: "tf state", ssl: false, application_name: "app", connectionTimeoutMillis: 7000 });
  });

  test("sslmode defaults to require, as lib/pq: encrypted, certificate not checked", () => {
    const c = pgClientConfig("postgresql://u@h/db", {});
    expect(c.ssl).toMatchObject({ rejectUnauthorized: false });
    const full = pgClientConfig("postgresql://u@h/db?sslmode=verify-full", {});
    expect(full.ssl).toEqual({ rejectUnauthorized: true });
    const ca = pgClientConfig("postgresql://u@h/db?sslmode=verify-ca", {});
    expect(ca.ssl).toMatchObject({ rejectUnauthorized: true, checkServerIdentity: expect.any(Function) });
  });

  test("reads libpq key=value pairs with quoting", () => {
    const c = pgClientConfig(`host=localhost port=5433 dbname='my db' user=bob password='it\\'s' sslmode=disable`, {});
    expect(c).toEqual({ host: "localhost", port: 5433, database: "my db", user: "bob", password: "it's", ssl: false });
  });

  test("fills what the string leaves out from the libpq environment variables; the string wins", () => {
    const env = { PGHOST: "envhost", PGPORT: "5999", PGUSER: "envuser", PGPASSWORD: "envpw", PGDATABASE: "envdb", PGSSLMODE: "disable" };
    expect(pgClientConfig("postgres://urlhost/urldb", env)).toEqual({ host: "urlhost", port: 5999, user: "envuser", password: "envpw", database: "urldb", ssl: false });
    expect(pgClientConfig("", env)).toEqual({ host: "envhost", port: 5999, user: "envuser", password: "envpw", database: "envdb", ssl: false });
    // dbname defaults to the user, as in libpq.
    expect(pgClientConfig("host=h user=carol sslmode=disable", {})).toMatchObject({ database: "carol" });
  });

  test("refuses what lib/pq refuses, naming it", () => {
    expect(refusal("postgres://h/db?sslmode=prefer")).toContain('unsupported sslmode "prefer"');
    expect(refusal("postgres://h/db", { PGSSLMODE: "allow" })).toContain('unsupported sslmode "allow"');
    expect(refusal("postgres://h/db?search_path=x")).toContain('unsupported parameter "search_path"');
    expect(refusal("host=h port=0")).toContain('invalid port "0"');
    expect(refusal("host=h password='open")).toContain('unterminated quoted value for "password"');
    expect(refusal("host")).toContain('expected "=" after "host"');
    expect(refusal("postgres://h/db?connect_timeout=soon")).toContain("connect_timeout");
    expect(refusal("postgres://h/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")).toContain('cannot read sslrootcert "/nonexistent/ca.pem"');
  });
});
