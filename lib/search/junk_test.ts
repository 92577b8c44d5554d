import { assertEquals } from "../../tests/_assert.ts";
import { isThrowaway, projectMatcher } from "./junk.ts";
import { makeEnv } from "../../core/runtime.ts";

Deno.test("isThrowaway recognises temp dirs and eval sandboxes, not real projects", () => {
  for (
    const p of [
      "/tmp/tmp.k3J9x2ab/app",
      "/private/var/folders/xy/abc123/T/run",
      "/home/dev/tmp/scratch",
      "/home/dev/.cache/pytest-of-dev/pytest-12/test_a0",
      "/srv/evals/eval-3fa9c1d2e4/repo",
      "C:\\Users\\dev\\AppData\\Local\\Temp\\build",
    ]
  ) assertEquals(isThrowaway(p), true, p);
  for (
    const p of [
      "/home/dev/work/app",
      "/home/dev/work/temperature-service",
      "/srv/sandboxed-ui",
      null,
    ]
  ) assertEquals(isThrowaway(p), false, String(p));
  assertEquals(isThrowaway("/scratch/me/x", makeEnv({ TMPDIR: "/scratch/me" })), true);
});

Deno.test("projectMatcher takes substrings case-insensitively and whole-path globs", () => {
  const m = projectMatcher(["Acme", "*/clients/*/legal"]);
  assertEquals(m("/home/dev/ACME-site"), true);
  assertEquals(m("/home/dev/clients/bigco/legal"), true);
  assertEquals(m("/home/dev/clients/bigco/web"), false);
  assertEquals(m(null), false);
  assertEquals(projectMatcher([])("/anything"), false);
});

Deno.test("isThrowaway keeps a project inside the home directory, even when home sits in /tmp", () => {
  const env = makeEnv({ HOME: "/tmp/try/home" }, "/tmp/try/home");
  assertEquals(isThrowaway("/tmp/try/home/work/app", env), false);
  assertEquals(isThrowaway("/tmp/try/home/tmp/scratch", env), false);
  assertEquals(isThrowaway("/tmp/try/home/work/pytest-of-me/pytest-3/t0", env), true);
  assertEquals(isThrowaway("/tmp/elsewhere/app", env), true);
});
