import type { LockInfo } from "../backend.js";
import { describeHolder, holderLockInfo, lockInfoComment, type PgLockSession } from "./pg-lock-holder.js";

const info: LockInfo = { id: "0b0e5d1c-4c43-4a8e-9d0e-1f1a2b3c4d5e", operation: "OperationTypeApply", info: "it's */ fine", who: "alice@laptop", version: "0.1.0", created: "2026-12-01T12:00:00.5Z", path: "7" };

function session(over: Partial<PgLockSession>): PgLockSession {
  return { pid: 4242, user: "postgres", applicationName: "", clientAddr: "10.0.0.9", backendStart: new Date("2026-12-01T11:00:00Z"), query: null, ...over };
}

describe("lock holders", () => {
  test("a magma session's published lock info is read back from its statement text", () => {
    const query = `${lockInfoComment(info)}SELECT 1`;
    expect(query.startsWith("/* magma-lock-info:")).toBe(true);
    expect(holderLockInfo(session({ query, applicationName: `magma-lock ${info.id}` }), "7")).toEqual(info);
  });

  test("a holder read while its lock statement runs (its published path still empty) is named with the lock's key", () => {
    const query = `${lockInfoComment({ ...info, path: "" })}SELECT states.id::text AS id, pg_try_advisory_lock(states.id) FROM x`;
    expect(holderLockInfo(session({ query }), "12")).toEqual({ ...info, path: "12" });
  });

  test("a magma session whose statement text is hidden is named by its application name", () => {
    const h = holderLockInfo(session({ query: "<insufficient privilege>", applicationName: `magma-lock ${info.id}` }), "7");
    expect(h).toMatchObject({ id: info.id, operation: "", who: "postgres@10.0.0.9", path: "7" });
    expect(h.info).toContain("not visible to this role");
  });

  test("any other session (terraform) is named by pid, role, address and application", () => {
    const h = holderLockInfo(session({ query: "SELECT states.id, pg_try_advisory_lock(states.id) FROM x", clientAddr: null }), "-1");
    expect(h).toEqual({
      id: "pg-backend-pid-4242",
      operation: "",
      info: 'a Postgres session that recorded no lock info (e.g. terraform): pid 4242, application "", from a local socket, connected since 2026-12-01T11:00:00.000Z',
      who: "postgres@a local socket",
      version: "",
      created: "",
      path: "-1",
    });
  });

  test("describeHolder leaves out what is empty", () => {
    expect(describeHolder(info)).toBe(`lock id ${info.id}, operation OperationTypeApply, by alice@laptop, version 0.1.0, since 2026-12-01T12:00:00.5Z, it's */ fine`);
    expect(describeHolder({ ...info, operation: "", version: "", created: "", info: "" })).toBe(`lock id ${info.id}, by alice@laptop`);
  });
});
