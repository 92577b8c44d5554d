/**
 * blame, restore, fix and ctx over the real Crush stores in ../shared/realdata/crush
 * (copied to a temporary directory first, laid out as Crush keeps them:
 * projects.json naming one project per store). Observed on Crush 0.7-0.9
 * stores: bash results ending in `Exit code N`, edit/multiedit spans, failed
 * edits, Windows paths.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { REPO, testEnv } from "./_fixture.ts";
import { runIndex } from "../lib/indexer.ts";
import { indexPath, Store } from "../lib/store.ts";
import { parsers } from "../parsers/mod.ts";
import { blame } from "../lib/memory/blame.ts";
import { listSpans } from "../lib/memory/restore.ts";
import { findFixes } from "../lib/memory/fix.ts";
import { sessionDigest } from "../lib/memory/digest.ts";
import { pickSession } from "../lib/memory/pick.ts";
import { search } from "../lib/search.ts";
import { tempDir } from "./_tmp.ts";

const REAL = join(REPO, "..", "shared", "realdata", "crush");

async function crushIndex(): Promise<{ store: Store; cleanup(): void }> {
  const root = tempDir("deja-mem-real-");
  const projects: Array<Record<string, string>> = [];
  for (const name of readdirSync(REAL)) {
    if (!name.endsWith(".db")) continue;
    const proj = join(root, "projects", basename(name, ".db"));
    mkdirSync(join(proj, ".crush"), { recursive: true });
    copyFileSync(join(REAL, name), join(proj, ".crush", "crush.db"));
    projects.push({
      path: proj,
      data_dir: join(proj, ".crush"),
      last_accessed: "2026-11-01T00:00:00Z",
    });
  }
  mkdirSync(join(root, "data"));
  writeFileSync(join(root, "data", "projects.json"), JSON.stringify({ projects }));
  const env = testEnv(join(root, "home"), {
    DEJA_HOME: join(root, "deja"),
    DEJA_CRUSH_ROOT: join(root, "data"),
  });
  await runIndex(env, parsers, { only: ["crush"] });
  const store = Store.open(indexPath(env));
  return {
    store,
    cleanup() {
      store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

Deno.test({
  name: "blame and restore read real Crush edit and write spans, failed edits left out",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      const k = blame(ix.store, "apps/infra/kustomization.yaml", { cwd: "/nowhere" });
      assertEquals(k.match, "suffix");
      assertEquals(k.sessions.length, 1);
      assertEquals(k.sessions[0].session.title, "Add Redis");
      // One edit to the absolute path succeeded; the one to "/apps/..." failed (file not found).
      assertEquals([k.sessions[0].edits, k.sessions[0].failed, k.sessions[0].reads], [1, 1, 1]);
      assertStringIncludes(k.sessions[0].changes[0].before ?? "", "kustomization");
      const spans = listSpans(ix.store, "apps/infra/kustomization.yaml", { cwd: "/nowhere" }).spans;
      assertEquals(spans.length, 1);
      assert(spans[0].text.startsWith("apiVersion: kustomize.config.k8s.io/v1beta1"));
      assert(!spans[0].text.includes("- redis"), "the old side, before redis was added");

      // A write over a file gives back what it replaced, from Crush's file history (trial 52:
      // "previous content unknown, not restorable").
      const over = listSpans(ix.store, "apps/fun/chex-mix-timer/kustomization.yaml", {
        cwd: "/nowhere",
      }).spans.filter((x) => x.op === "write");
      assertEquals(over.map((x) => x.restorable), [true]);
      assertStringIncludes(over[0].text, "  - deployment.yaml\n");
      assert(!over[0].text.includes("frontend-deployment.yaml"), "the file before the write");

      // Windows paths written by Crush on Windows, matched by file name.
      const w = blame(ix.store, "WinSetup.psm1", { cwd: "/nowhere" });
      assertEquals(w.match, "basename");
      // Edits are counted by call: 3 calls (multiedits among them) made its 8 edit spans.
      assertEquals([w.sessions[0].edits, w.sessions[0].writes], [3, 1]);
      const ws = listSpans(ix.store, "modules/WinSetup.psm1", { cwd: "/nowhere" }).spans;
      assertEquals(ws.length, 9);
      for (let i = 1; i < ws.length; i++) assert((ws[i - 1].time ?? 0) >= (ws[i].time ?? 0));
      assertEquals([ws[8].op, ws[8].lines, ws[8].restorable], ["write", 217, false]);
    } finally {
      ix.cleanup();
    }
  },
});

Deno.test({
  name: "fix finds what ran after real Crush failures with Exit code N, and says when never seen",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      const k = findFixes(ix.store, `"kustomize": executable file not found in $PATH`);
      // What ran next (yq) failed too: that fixed nothing, so it is not offered as a fix.
      assertEquals([k.status, k.seen], ["no_fix", 1]);
      const pester = findFixes(
        ix.store,
        "CommandNotFoundException: The term 'Backup-RegistryPersonalize' is not recognized as a name of a cmdlet",
      );
      assertEquals(pester.status, "found");
      assert(pester.fixes[0].examples[0].edited.some((p) => p.endsWith("WinSetup.Tests.ps1")));
      const rebase = findFixes(
        ix.store,
        "error: cannot pull with rebase: You have unstaged changes.",
      );
      // The `git stash` that followed is the session's last call and has no result: it never
      // finished, so it is no fix (trial 9 was told "succeeded 1/1").
      assertEquals([rebase.status, rebase.seen, rebase.fixes.length], ["no_fix", 1, 0]);
      assertEquals(
        findFixes(ix.store, "fatal: not a git repository (or any parent)").status,
        "unseen",
      );
    } finally {
      ix.cleanup();
    }
  },
});

Deno.test({
  name: "ctx digests a real Crush session within 8 KiB and 2 KiB",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      const row = ix.store.db.prepare("SELECT native_id FROM sessions WHERE title = 'Add Redis'")
        .get() as { native_id: string };
      const p = pickSession(ix.store, row.native_id.slice(0, 8));
      assertEquals(p?.via, "id");
      for (const budget of [8192, 2048]) {
        const d = sessionDigest(ix.store, p!.session.id, {
          query: "redis helm",
          budgetBytes: budget,
        });
        assert(d.bytes <= budget, `${d.bytes} > ${budget}`);
        assertStringIncludes(d.markdown, "# deja context: crush · ");
        // Failed runs come first; at 2 KiB the last of them (each with its error line).
        assertStringIncludes(
          d.markdown,
          budget > 4096 ? "**exit 127 ✗**" : "**exit 128 ✗** — fatal:",
        );
      }
    } finally {
      ix.cleanup();
    }
  },
});

// Crush writes `Exit code N` only when a command fails (a run without it is exit 0); PowerShell 7
// on Windows colours its errors. Before: "never seen" for coloured errors, "nothing fixed it"
// when the command right after failed and an edit plus a passing re-run fixed it.
Deno.test({
  name:
    "fix and ctx judge real Crush runs: coloured errors, re-runs, exit 0 without an Exit code line",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      const parser = findFixes(
        ix.store,
        "ParserError: Variable reference is not valid. ':' was not followed by a valid variable name character.",
      );
      assert(parser.seen >= 1, parser.message);
      const pester = findFixes(
        ix.store,
        "RuntimeException: '-BeTrue' is not a valid Should operator.",
      );
      assertEquals(pester.status, "found");
      const f = pester.fixes[0];
      // The edit of the tests is the fix, the re-run of Pester its check (trial 105 F4).
      assert(f.retry && f.rerun?.includes("Invoke-Pester"), f.rerun);
      assert(f.action === "edit" && f.path?.endsWith("WinSetup.Tests.ps1"), f.command);
      assert(f.examples[0].edited.some((p) => p.endsWith("WinSetup.Tests.ps1")));
      const row = ix.store.db.prepare(
        "SELECT s.id FROM sessions s JOIN commands c ON c.session_id = s.id " +
          "WHERE c.command LIKE '%lint.ps1%' LIMIT 1",
      ).get() as { id: number };
      const d = sessionDigest(ix.store, row.id);
      // PowerShell printed an error but exited 0: Crush wrote no `Exit code` line (it writes one
      // only when the exit is not 0). The status is PowerShell's, which says nothing of the
      // errors it printed: the output does (trial 25: `fix` offered this run as the fix of
      // the very error it printed).
      const lint = d.commands.find((c) => c.command.includes("lint.ps1"))!;
      assertEquals([lint.exit, lint.outcome], [0, "failed"]);
      assertStringIncludes(d.markdown, "lint.ps1'\"` → **failed by its output (exit 0) ✗**");
    } finally {
      ix.cleanup();
    }
  },
});

Deno.test({
  name: "ctx's outcome of a real Crush session ends on the user's report that the command failed",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      // The assistant suggested `kubectl logs … --previous`; the user pasted what it printed.
      const row = ix.store.db.prepare(
        "SELECT session_id AS id FROM events WHERE kind = 'user' AND text LIKE 'I tried:%'",
      ).get() as { id: number };
      const d = sessionDigest(ix.store, row.id);
      assert(d.outcome?.startsWith("The user's last message reports a problem"), d.outcome ?? "");
      assertStringIncludes(d.outcome!, "Error from server (BadRequest)");
    } finally {
      ix.cleanup();
    }
  },
});

Deno.test({
  name:
    "search puts first the real Crush session whose first prompt states the query after a pasted summary",
  ignore: !existsSync(REAL),
  fn: async () => {
    const ix = await crushIndex();
    try {
      // 093f9963 opens with the last session's summary in a fence, then "Our goal for this
      // session: Add redis to this kubernetes cluster" (trials 19, 55).
      const r = search(ix.store, "add redis to the cluster");
      assertEquals(r.results[0]?.title, "Add Redis");
    } finally {
      ix.cleanup();
    }
  },
});
