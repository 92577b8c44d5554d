/**
 * YAML installs change only deja's entry: a real-world-looking config full of
 * comments, flow lists and odd spacing keeps every byte outside deja's lines
 * (yaml_edit.ts splices instead of re-rendering), and uninstall gives back the
 * original bytes. Everything under a temp HOME.
 */
import { assert, assertEquals } from "./_assert.ts";
import { read, roundTrip, t, world, write } from "./_install_world.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { installTargets } from "../lib/install/run.ts";
import { parseConfig } from "../lib/install/formats.ts";
import { launcherPath } from "../lib/install/launcher.ts";

/**
 * Where `after` differs from `before`: the one run of lines it replaced
 * (`from`, lines of `before`) and what stands there now (`to`); every line
 * around them is byte for byte the same.
 */
function changedLines(before: string, after: string): { from: string[]; to: string[] } {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  return { from: a.slice(head, a.length - tail), to: b.slice(head, b.length - tail) };
}

/** The lines `after` adds to `before`, asserting that it changes no other line. */
function addedBlock(before: string, after: string): string[] {
  const d = changedLines(before, after);
  assertEquals(d.from, [], `a line outside deja's entry changed:\n${after}`);
  return d.to;
}

/** The one line of `before` that `after` changed, as it is now. */
function changedLine(before: string, after: string): string {
  const d = changedLines(before, after);
  assertEquals(d.from.length, 1, `more than one line changed:\n${after}`);
  assertEquals(d.to.length, 1, `more than one line changed:\n${after}`);
  return d.to[0];
}

const GOOSE = `# Goose config — edited by hand
GOOSE_PROVIDER:    anthropic     # the provider,   spaced
GOOSE_MODEL: claude-sonnet-4
toolsets: [developer,computercontroller ,  memory]
extensions:
  developer:
    enabled:   true
    name: developer   # builtin
    type: builtin
    args: [ --verbose,--color=never ]
  github:
    {cmd: npx, args: [-y,"@modelcontextprotocol/server-github"], enabled: false, type: stdio}

# keep this comment after the extensions
experiments: {fast:  true}
`;

Deno.test("goose: only deja's extension is added to a config full of comments and flow lists", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "goose", "config.yaml");
    const after = roundTrip(w, "goose", path, GOOSE);
    const block = addedBlock(GOOSE, after);
    assert(block[0] === "  deja:", block.join("\n"));
    const v = parseConfig(after, "yaml") as { extensions: Record<string, Record<string, unknown>> };
    assertEquals(v.extensions.deja.cmd, launcherPath(w.env));
    assertEquals(v.extensions.github.enabled, false);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("hermes: mcp_servers.deja joins a flow map of servers between its braces", () => {
  const w = world();
  try {
    const path = join(w.home, ".hermes", "config.yaml");
    const original = `model:
  default: "anthropic/claude-sonnet-4"   # keep me
toolsets: [hermes-cli,  web]
mcp_servers: {github: {command: gh,  args: [mcp]}}
display: {compact: true,skin: default}
`;
    const after = roundTrip(w, "hermes", path, original);
    const line = changedLine(original, after);
    assert(line.startsWith("mcp_servers: {github: {command: gh,  args: [mcp]}, deja: {"), line);
    const v = parseConfig(after, "yaml") as { mcp_servers: Record<string, unknown> };
    assert(v.mcp_servers.deja);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("continue: deja's item joins an mcpServers list of odd indentation; nothing else moves", () => {
  const w = world();
  try {
    const path = join(w.home, ".continue", "config.yaml");
    const original = `name: my assistant   # local
version: 1.0.0
models:
    - name: Claude   # four-space list
      provider: anthropic
      roles: [chat,edit]
mcpServers:
    - name: sqlite
      command: npx
      args: [ "-y", "mcp-sqlite",   "db.sqlite" ]
# end
`;
    const after = roundTrip(w, "continue", path, original);
    const block = addedBlock(original, after);
    assertEquals(block[0], "    - name: deja");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("aider: the guidance file joins a flow read: list in place", () => {
  const w = world();
  try {
    const path = join(w.home, ".aider.conf.yml");
    const original = `## aider settings
model: sonnet     # main
read: [CONVENTIONS.md,  docs/notes.md]
auto-commits: false
`;
    const after = roundTrip(w, "aider", path, original);
    const line = changedLine(original, after);
    assert(line.startsWith("read: [CONVENTIONS.md,  docs/notes.md, "), line);
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});

Deno.test("a YAML install over a config that already had deja's entry updates it in place", () => {
  const w = world();
  try {
    const path = join(w.home, ".config", "goose", "config.yaml");
    const stale = GOOSE.replace(
      "experiments:",
      "extensions2: x\nexperiments:",
    );
    write(path, stale);
    installTargets(w.env, w.self, [t("goose")]);
    const first = read(path);
    write(path, first.replace(launcherPath(w.env), "/old/place/deja-launcher"));
    installTargets(w.env, w.self, [t("goose")]);
    assertEquals(read(path), first, "the stale launcher path is replaced where it stands");
  } finally {
    rmSync(w.root, { recursive: true, force: true });
  }
});
