/**
 * Trial 133 F9: hook entries edited to `--harness claude-cod` and `--harness crushh` were
 * `wired` (exit 0, no problem) while doctor's own hooks.log lines said to fix the wiring.
 */
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { read, t, world, write } from "./_install_world.ts";
import { runMain } from "./_cli_io.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../lib/install/run.ts";
import { targetStatus } from "../lib/install/doctor.ts";
import { doctorData } from "../lib/cli/cmd_doctor.ts";

Deno.test("doctor counts a deja hook wired with a --harness no harness has as a broken entry, naming the nearest id (trial 133 F9)", async () => {
  const w = world();
  try {
    installTargets(w.env, w.self, [t("claude-code"), t("claude-auto")]);
    const settings = join(w.home, ".claude", "settings.json");
    const wired = read(settings);
    write(
      settings,
      wired.replace("deja-launcher hook-prompt", "deja-launcher hook-prompt --harness claude-cod")
        .replace("deja-launcher hook-context", "deja-launcher hook-context --harness crushh"),
    );
    const st = targetStatus(w.env, t("claude-auto"));
    assertEquals(st.state, "broken_entry");
    const detail = st.parts[0].detail ?? "";
    assertStringIncludes(
      detail,
      "UserPromptSubmit hook-prompt has --harness 'claude-cod', no harness deja knows: it " +
        "answers in Claude Code's envelope (nearest: claude); " +
        "'deja install claude-auto --force' rewrites it",
    );
    assertStringIncludes(detail, "SessionStart hook-context has --harness 'crushh'");
    assertStringIncludes(detail, "(nearest: crush);");
    assertEquals(doctorData(w.env, w.self).problems, ["claude-auto (broken entry)"]);
    assertEquals((await runMain(w.env, ["doctor"])).code, 1);
    // No id at all is the same fault.
    write(
      settings,
      wired.replace("deja-launcher hook-prompt", "deja-launcher hook-prompt --harness"),
    );
    assertStringIncludes(
      targetStatus(w.env, t("claude-auto")).parts[0].detail ?? "",
      "UserPromptSubmit hook-prompt has --harness and no id",
    );
    // A known id, in any spelling the hooks take, is wired.
    for (const arg of ["--harness claude", "--harness=claude", "--harness Claude"]) {
      write(
        settings,
        wired.replace("deja-launcher hook-prompt", `deja-launcher hook-prompt ${arg}`),
      );
      assertEquals(targetStatus(w.env, t("claude-auto")).state, "wired", arg);
    }
    // The hint holds: --force rewrites the entries.
    write(
      settings,
      wired.replace("deja-launcher hook-prompt", "deja-launcher hook-prompt --harness crushh"),
    );
    installTargets(w.env, w.self, [t("claude-auto")], { force: true });
    assertEquals(targetStatus(w.env, t("claude-auto")).state, "wired");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
