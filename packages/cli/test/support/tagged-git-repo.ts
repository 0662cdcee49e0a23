/**
 * Test support: a git repository on disk for module-source tests — `files` committed and
 * tagged `v1`, then `main.tf` changed to `laterMain` in a second commit, so that `?ref=v1`
 * and the default branch give different contents.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workdir } from "./workdir.js";

/** The repository's directory. */
export function taggedGitRepo(files: Record<string, string>, laterMain: string): string {
  const repo = workdir(files);
  const g = (args: string[]): void => {
    const r = spawnSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    if (r.status !== 0) throw new Error(r.stderr);
  };
  g(["init", "-q", "-b", "main"]);
  g(["add", "."]);
  g(["commit", "-q", "-m", "v1"]);
  g(["tag", "v1"]);
  writeFileSync(join(repo, "main.tf"), laterMain);
  g(["commit", "-q", "-am", "later"]);
  return repo;
}
