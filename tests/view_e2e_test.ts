/**
 * `deja view` as the compiled binary: it prints its address, serves its own
 * stylesheet and script (carried in the binary), and stops cleanly on Ctrl-C.
 */
import { assertEquals, assertMatch, assertStringIncludes } from "./_assert.ts";
import { spawn } from "node:child_process";
import process from "node:process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { binary } from "./_binary.ts";
import { exactly, hermeticEnv } from "./_env.ts";
import { tempDir } from "./_tmp.ts";

Deno.test("deja view (binary) prints its address, serves its assets, and stops on SIGINT", async () => {
  const root = tempDir("deja-view-e2e-");
  const env = hermeticEnv(root, { DEJA_HOME: join(root, "deja"), DEJA_NO_REFRESH: "1" });
  const [cmd, args] = exactly([binary(), "view", "--no-open"], env);
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => out += c);
  child.stderr.setEncoding("utf8").on("data", (c: string) => err += c);
  const exited = new Promise<string>((r) => child.on("exit", (code, sig) => r(`${code} ${sig}`)));
  try {
    for (let i = 0; i < 200 && !out.includes("\n"); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = out.trim().replace(/^deja view: /, "");
    assertMatch(url, /^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}\/$/);
    const css = await fetch(url + "app.css");
    assertEquals(css.status, 200);
    assertStringIncludes(await css.text(), "--bg:");
    const js = await fetch(url + "app.js");
    assertStringIncludes(await js.text(), "data-base");
    // No index yet: the page says how to make one.
    const page = await fetch(url);
    assertEquals(page.status, 503);
    assertStringIncludes(await page.text(), "deja index");
    const bare = await fetch(new URL("/", url));
    assertEquals(bare.status, 403);
    await bare.body?.cancel();
    process.kill(child.pid!, "SIGINT"); // not child.kill: Deno then reports the signal, not the exit code
    assertEquals(await exited, "0 null", err);
    assertStringIncludes(err, "stopped");
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  }
});
