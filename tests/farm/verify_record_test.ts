/** `deno task verify:record`: the registry fields and the pages' generated parts from a report. */
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { REPO } from "../_fixture.ts";
import { record } from "./verify_record.ts";
import type { FarmReport, HarnessResult } from "./report.ts";
import { BEGIN, readBlock } from "./_verified.ts";
import { tempDir } from "../_tmp.ts";

function result(
  name: string,
  parser: string,
  version: string,
  status: HarnessResult["status"],
): HarnessResult {
  return {
    name,
    display: name,
    parser,
    package: `@farm/${name}`,
    version,
    status,
    reason: status === "passed" ? "" : "marker: not found",
    seconds: 1,
    install: null,
    requests: 3,
    outbound: [],
    checks: [
      { name: "marker", ok: status === "passed", detail: "" },
      { name: "failed command", ok: true, detail: "exit 2 recorded" },
      { name: "second turn", ok: null, detail: "no resume command known" },
    ],
    runs: [],
    skipped_records: {},
    notes: null,
  };
}

const report = (hs: HarnessResult[]): FarmReport => ({
  version: 1,
  deja: "0.0.0",
  started: "2031-02-03T10:00:00.000Z",
  finished: "2031-02-03T10:05:00.000Z",
  seconds: 300,
  sandbox: "net+pid namespaces",
  platform: "linux-x64",
  harnesses: hs,
});

/** A copy of registry.json and the claude and codex pages in a temp repo. */
function repo(): { dir: string; cleanup(): void } {
  const dir = tempDir("deja-record-");
  mkdirSync(join(dir, "docs/registry"), { recursive: true });
  copyFileSync(join(REPO, "registry.json"), join(dir, "registry.json"));
  for (const id of ["claude", "codex"]) {
    copyFileSync(join(REPO, "docs/registry", `${id}.md`), join(dir, "docs/registry", `${id}.md`));
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const entry = (dir: string, id: string) =>
  JSON.parse(readFileSync(join(dir, "registry.json"), "utf8")).harnesses.find((e: { id: string }) =>
    e.id === id
  );

Deno.test("a passed harness gets its version, method and date in the registry and its page", () => {
  const r = repo();
  try {
    const before = entry(r.dir, "codex");
    const out = record(
      r.dir,
      report([
        result("claude", "claude", "9.9.9", "passed"),
        result("codex", "codex", "8.8.8", "failed"),
      ]),
    );
    assertEquals(out.recorded, ["claude 9.9.9 2031-02-03"]);
    assertEquals(out.untouched, ["codex: failed (marker: not found)"]);
    const e = entry(r.dir, "claude");
    assertEquals([e.verified_version, e.verified_by, e.last_verified], [
      "9.9.9",
      "farm",
      "2031-02-03",
    ]);
    assertEquals(entry(r.dir, "codex"), before, "a failed harness is left as it was");
    const page = readFileSync(join(r.dir, "docs/registry/claude.md"), "utf8");
    assertEquals(readBlock(page), { version: "9.9.9", date: "2031-02-03" });
    assertStringIncludes(page, "Last verified: 2031-02-03");
    assertStringIncludes(page, "Not checked by the farm: second turn (no resume command known).");
    assertEquals(page.split(BEGIN).length, 2, "one generated part, replaced in place");
  } finally {
    r.cleanup();
  }
});

Deno.test("recording changes only the verification lines of registry.json and is idempotent", () => {
  const r = repo();
  try {
    const path = join(r.dir, "registry.json");
    const before = readFileSync(path, "utf8");
    const rep = report([result("claude", "claude", "9.9.9", "passed")]);
    record(r.dir, rep);
    const once = readFileSync(path, "utf8");
    record(r.dir, rep);
    assertEquals(readFileSync(path, "utf8"), once);
    const changed = once.split("\n").filter((l, i) => l !== before.split("\n")[i]);
    assert(changed.length <= 3, `changed lines: ${changed.join(" | ")}`);
    for (const l of changed) assert(/"(last_verified|verified_version|verified_by)"/.test(l), l);
  } finally {
    r.cleanup();
  }
});

Deno.test("a file that is not a farm report is refused without writing anything", () => {
  const r = repo();
  try {
    const before = readFileSync(join(r.dir, "registry.json"), "utf8");
    let threw = false;
    try {
      record(r.dir, { harnesses: "nope" } as unknown as FarmReport);
    } catch {
      threw = true;
    }
    assert(threw);
    assertEquals(readFileSync(join(r.dir, "registry.json"), "utf8"), before);
  } finally {
    r.cleanup();
  }
});
