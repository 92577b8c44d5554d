/**
 * Papercuts that read as bugs (issue 10, item 10): version and help, a mistyped
 * command, demo's flags and progress, repeated snippet lines, sources per
 * harness, a no-op index, install/uninstall/doctor edges. Each test failed
 * before its fix.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { main } from "../main.ts";
import type { IO } from "../core/runtime.ts";
import { testEnv } from "./_fixture.ts";
import denoJson from "../deno.json" with { type: "json" };
import { tempDir } from "./_tmp.ts";

function run(args: string[], vars: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const home = vars.HOME ?? tempDir("deja-pc-home-");
  const io: IO = {
    args,
    env: testEnv(home, {
      DEJA_HOME: join(home, ".deja-data"),
      XDG_CONFIG_HOME: join(home, ".config"),
      ...vars,
    }),
    cwd: "/",
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    isTTY: false,
    errTTY: false,
    readStdin: () => Promise.resolve(""),
  };
  return main(io).then((code) => ({ code, out: out.join(""), err: err.join("") }));
}

/** A Claude store with one session that says the same line three times. */
function world(): Record<string, string> {
  const dir = tempDir("deja-pc-");
  const proj = join(dir, "claude", "-w-app");
  mkdirSync(proj, { recursive: true });
  const base = {
    sessionId: "11111111-2222-4333-8444-555555555555",
    cwd: "/w/app",
    timestamp: "2026-11-01T10:00:00Z",
  };
  const say = (i: number, text: string) => ({
    ...base,
    type: i % 2 ? "assistant" : "user",
    uuid: `e${i}`,
    message: i % 2
      ? { id: `m${i}`, role: "assistant", content: [{ type: "text", text }] }
      : { role: "user", content: text },
  });
  const lines = [
    say(0, "the flaky widget test fails again"),
    say(1, "the flaky widget test fails again"),
    say(2, "the flaky widget test fails again"),
    say(3, "Pinned the clock; the flaky widget test passes now, no lost runs."),
  ];
  writeFileSync(
    join(proj, `${base.sessionId}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
  return {
    HOME: join(dir, "home"),
    DEJA_HOME: join(dir, "deja"),
    DEJA_CLAUDE_ROOT: join(dir, "claude"),
  };
}

Deno.test("version, --version and -V print deno.json's version instead of searching", async () => {
  for (const a of ["version", "--version", "-V"]) {
    const r = await run([a]);
    assertEquals(r.code, 0, a);
    assertEquals(r.out, `deja ${denoJson.version}\n`, a);
  }
});

Deno.test("version is a command: --json and --help work on it and on --version/-V", async () => {
  for (const a of [["version", "--json"], ["--version", "--json"], ["-V", "--json"]]) {
    const r = await run(a);
    assertEquals([r.code, r.err], [0, ""], a.join(" "));
    const doc = JSON.parse(r.out);
    assertEquals(doc.version, denoJson.version);
    assert(typeof doc.runtime === "string" && typeof doc.platform === "string", r.out);
  }
  for (const a of [["version", "--help"], ["help", "version"], ["--version", "--help"]]) {
    const r = await run(a);
    assertEquals(r.code, 0, a.join(" "));
    assert(r.out.startsWith("deja version"), r.out.slice(0, 60));
    assertStringIncludes(r.out, "--json");
  }
  const bad = await run(["version", "extra"]);
  assertEquals(bad.code, 2);
});

Deno.test("help <command> and <command> --help print that command's own help", async () => {
  const h = await run(["help", "search"]);
  assertEquals(h.code, 0);
  assert(h.out.startsWith("deja search <query...>"), h.out.slice(0, 60));
  assertStringIncludes(h.out, "--limit");
  const f = await run(["sources", "--help"]);
  assert(f.out.startsWith("deja sources"), f.out.slice(0, 60));
  const bad = await run(["help", "shwo"]);
  assertEquals(bad.code, 2);
  assertStringIncludes(bad.err, "did you mean 'show'?");
});

Deno.test("a mistyped command is still searched, and says which command it resembles unless the history holds the word", async () => {
  const vars = world();
  await run(["index", "--quiet"], vars);
  const miss = await run(["showw", "11111111"], vars);
  assertEquals(miss.code, 1);
  assertStringIncludes(miss.err, "deja: 'showw' is not a command; did you mean 'show'?");
  // A close spelling found something, but 'flaky' was typed as 'flaxy': 'indx' is no word of
  // the history, so the note comes after the results too.
  const fuzzy = await run(["indx", "flaxy"], vars);
  assertStringIncludes(fuzzy.err, "did you mean 'index'?");
  // 'lost' is a word of the history (close to 'last'): a real search, no note.
  const hit = await run(["lost", "widget"], vars);
  assertEquals(hit.code, 0);
  assertEquals(
    hit.err.includes("not a command"),
    false,
    "a word of the history is searched without a note",
  );
  // A mistyped command with that command's option: the usage error, and which command it was.
  const usage = await run(["indx", "--rebuild"], vars);
  assertEquals(usage.code, 2);
  assertStringIncludes(usage.err, "did you mean 'index'?");
  // A word of the history with a bad option: only the usage error.
  const known = await run(["lost", "--limit", "0"], vars);
  assertEquals(known.code, 2);
  assertEquals(known.err.includes("not a command"), false, known.err);
  const word = await run(["flaky", "widget"], vars);
  assertEquals(word.code, 0);
  assertEquals(word.err.includes("not a command"), false);
  // No index yet: nothing was searched, and the note does not say it was (trial 45).
  const first = await run(["showw", "11111111"], { ...world(), DEJA_NO_REFRESH: "1" });
  assertStringIncludes(first.err, "did you mean 'show'?");
  assertEquals(first.err.includes("searched"), false, first.err);
});

Deno.test("words found after a mistyped command say which command it resembles", async () => {
  const vars = world();
  const line = {
    sessionId: "22222222-2222-4333-8444-555555555555",
    cwd: "/w/app",
    timestamp: "2026-11-02T10:00:00Z",
    type: "user",
    uuid: "s0",
    message: { role: "user", content: "search the widget docs on forgejo" },
  };
  writeFileSync(
    join(vars.DEJA_CLAUDE_ROOT, "-w-app", `${line.sessionId}.jsonl`),
    JSON.stringify(line) + "\n",
  );
  await run(["index", "--quiet"], vars);
  // Found with exit 0 (`serach` read as `search`): said too (trial 16: `deja serach docker`).
  const found = await run(["serach", "widget"], vars);
  assertEquals(found.code, 0, found.err);
  assertStringIncludes(
    found.err,
    "deja: 'serach' is not a command: these results are a search for the words; " +
      "did you mean 'deja search'?",
  );
  // A lone word too (trial 17a: `deja indx` found "index" and said nothing of the command).
  const lone = await run(["serach"], vars);
  assertEquals(lone.code, 0, lone.err);
  assertStringIncludes(lone.err, "these results are a search for the word; did you mean");
  // A word the history holds is a search, said nothing of.
  const held = await run(["widget"], vars);
  assertEquals(held.err.includes("not a command"), false, held.err);
  // Two edits from a command and one from a word the search reads (trial 18a: `deja forgjeo`
  // found Forgejo, then asked "did you mean 'deja forget'?").
  const far = await run(["forgjeo"], vars);
  assertEquals(far.code, 0, far.err);
  assertEquals(far.err.includes("did you mean"), false, far.err);
  // `--re` finding nothing with a `.*`: a line break may stand between (trial 18a).
  const re = await run(["search", "widget.*banana", "--re"], vars);
  assertEquals(re.code, 1, re.err);
  assertStringIncludes(re.err, "hint: '.' matches no line break; [\\s\\S]* spans lines");
});

Deno.test("search shows a line said three times once per hit", async () => {
  const vars = world();
  await run(["index", "--quiet"], vars);
  const r = await run(["flaky", "widget", "--json"], vars);
  const texts: string[] = JSON.parse(r.out).results[0].snippets.map((s: { text: string }) =>
    s.text
  );
  assertEquals(new Set(texts).size, texts.length, texts.join(" | "));
  assert(texts.some((t) => t.includes("Pinned the clock")), "the distinct line fills the slot");
});

Deno.test("a no-op index says up to date with the index's totals, not rows of zeros", async () => {
  const vars = world();
  const first = await run(["index"], vars);
  assertStringIncludes(first.out, "1 session written; the index holds 1 session");
  const again = await run(["index"], vars);
  assertEquals(again.code, 0);
  assertStringIncludes(again.out, "up to date (1 session, 4 events)");
  assertEquals(again.out.includes("0 read"), false, again.out);
});

Deno.test("sources prints one line per harness; roots and details with --verbose", async () => {
  const vars = world();
  await run(["index", "--quiet"], vars);
  const plain = await run(["sources"], vars);
  const claude = plain.out.split("\n").filter((l) =>
    l.startsWith("claude ") || l.startsWith("   ")
  );
  assertEquals(claude.length, 1, plain.out.slice(0, 400));
  assertEquals(plain.out.includes("verified:"), false);
  const verbose = await run(["sources", "--verbose"], vars);
  assertStringIncludes(verbose.out, "verified:");
  assertStringIncludes(verbose.out, "found   ");
});

Deno.test("demo accepts --limit, which its output advertises, and says what it does on stderr first", async () => {
  const r = await run(["demo", "--limit", "1", "test"]);
  assertEquals(r.code, 0, r.err);
  assert(r.err.startsWith("deja demo: "), r.err);
  assertEquals((r.out.match(/^\S+ {2}\S+ {2}\d{4}-/gm) ?? []).length, 1, r.out);
});

Deno.test("install with a broken config exits 2 naming file:line:column and leaves that target alone", async () => {
  const home = tempDir("deja-pc-home-");
  const cfg = join(home, ".config", "crush", "crush.json");
  mkdirSync(dirname(cfg), { recursive: true });
  const text = '{\n  "mcp": {,}\n}\n';
  writeFileSync(cfg, text);
  const before = readdirSync(join(home, ".config"), { recursive: true }).sort();
  const r = await run(["install", "claude-code", "crush"], { HOME: home });
  assertEquals(r.code, 2);
  assertStringIncludes(r.err, `${cfg}:2:11: not valid JSON`);
  assertEquals(readFileSync(cfg, "utf8"), text);
  assertEquals(readdirSync(join(home, ".config"), { recursive: true }).sort(), before);
  assert(existsSync(join(home, ".claude.json")), "the other target is installed");
  const doc = await run(["doctor"], { HOME: home });
  assertEquals(doc.code, 1, "doctor reports the broken config and exits 1");
  assertStringIncludes(doc.err, "crush (broken config)");
});

Deno.test("uninstall leaves no directory, backup or launcher install made, and files hooks under -auto", async () => {
  const home = tempDir("deja-pc-home-");
  const cfg = join(home, ".config", "crush", "crush.json");
  mkdirSync(dirname(cfg), { recursive: true });
  const original = '{"options": {"debug": true}}\n';
  writeFileSync(cfg, original);
  const vars = { HOME: home };
  const ins = await run(["install", "crush-auto", "claude-auto"], vars);
  assertEquals(ins.code, 0, ins.err);
  assert(existsSync(`${cfg}.deja.bak`));
  assertEquals((await run(["doctor"], vars)).code, 0, "all wired: nothing broken");
  const un = await run(["uninstall", "--all", "--json"], vars);
  assertEquals(un.code, 0, un.err);
  const targets = JSON.parse(un.out).targets as Array<
    { target: string; changes: Array<{ kind: string; action: string }> }
  >;
  const hooksOf = (n: string) =>
    targets.filter((t) => t.target === n).flatMap((t) => t.changes).filter((c) =>
      c.kind === "hooks"
    );
  assertEquals(hooksOf("crush").length, 0, "no hooks under the plain target");
  assertEquals(hooksOf("crush-auto").map((c) => c.action), ["removed"]);
  assertEquals(readFileSync(cfg, "utf8"), original, "the user's bytes are back");
  const left = readdirSync(home, { recursive: true }).map(String)
    .filter((p) => !p.startsWith(".deja-data")).sort();
  assertEquals(left, [".config", ".config/crush", ".config/crush/crush.json"]);
});

// Trial 47: `deja Forgej` listed Forgejo's sessions, then asked "did you mean 'deja forget'?".
Deno.test("a search that found something is not asked whether a command that deletes was meant", async () => {
  const vars = world();
  const proj = join(vars.DEJA_CLAUDE_ROOT, "-w-git");
  mkdirSync(proj, { recursive: true });
  const id = "22222222-2222-4333-8444-555555555555";
  writeFileSync(
    join(proj, `${id}.jsonl`),
    JSON.stringify({
      sessionId: id,
      cwd: "/w/git",
      timestamp: "2026-11-02T10:00:00Z",
      type: "user",
      uuid: "g0",
      message: { role: "user", content: "the forgejo pod keeps crashing" },
    }) + "\n",
  );
  await run(["index", "--quiet"], vars);
  const r = await run(["Forgej"], vars);
  assertEquals(r.code, 0, r.err);
  assertEquals(r.err.includes("forget"), false, r.err);
  // Found nothing: the command is still named.
  const none = await run(["forgot"], vars);
  assertStringIncludes(none.err, "forget");
});

Deno.test("deja alone is a usage error on stderr; help --help and help help are the help; the list names help and lines up the hooks (trial 120 L12-L14)", async () => {
  const none = await run([]);
  assertEquals([none.code, none.out], [2, ""]);
  assertStringIncludes(none.err, "Usage: deja <query...>");
  for (const a of [["help", "--help"], ["help", "help"], ["--help"]]) {
    const r = await run(a);
    assertEquals([r.code, r.err], [0, ""], a.join(" "));
    assertStringIncludes(r.out, "Usage: deja <query...>");
  }
  const h = (await run(["help"])).out;
  const at = (name: string) => new RegExp(`^  ${name} +(\\S)`, "m").exec(h);
  assert(at("help") !== null, h);
  // Each list's descriptions start in one column.
  const col = (name: string) => at(name)![0].length;
  assertEquals(col("help"), col("uninstall"));
  assertEquals(col("hook-tool-after"), col("hook-context"));
});

Deno.test("help followed by words that name no command hints their search (trial 121 M5)", async () => {
  const r = await run(["help", "me", "debug", "why", "the", "labels", "--limit", "2"]);
  assertEquals([r.code, r.out], [2, ""]);
  // The command named is the first word; the options are no part of it.
  assertStringIncludes(r.err, "deja: no command 'me'\n");
  assertStringIncludes(
    r.err,
    "hint: to search these words: deja search --limit 2 help me debug why the labels\n",
  );
  // A mistyped command alone is still only that; a command with more words is no search.
  assert(!(await run(["help", "shwo"])).err.includes("deja search"));
  const extra = await run(["help", "show", "--json"]);
  assertEquals(extra.code, 2);
  assertStringIncludes(extra.err, "help takes one command: deja help show");
  assert(!extra.err.includes("deja search"), extra.err);
});

Deno.test("search's usage line names every option its help lists (trial 121 L7: --from)", async () => {
  const h = (await run(["search", "--help"])).out;
  const usage = h.split("\n")[0];
  const opts = [...h.matchAll(/^ {2}(?:-., | {4})--([a-z-]+)/gm)].map((m) => m[1])
    .filter((o) => o !== "help" && o !== "no-refresh");
  assert(opts.includes("from"), h);
  assertEquals(opts.filter((o) => !usage.includes(`--${o}`)), []);
});
