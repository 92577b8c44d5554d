import { assert, assertEquals, assertThrows } from "../../tests/_assert.ts";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { testEnv } from "../../tests/_fixture.ts";
import { appendNote, notePlace, noteProject, remember } from "./notes.ts";
import { memIndex } from "../../tests/_search_fixture.ts";
import { localDay, noteSessionId, notesPath } from "../../parsers/deja.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { dataDir } from "../../core/paths.ts";
import { DejaError } from "../../core/errors.ts";
import { search } from "../search.ts";
import { tempDir } from "../../tests/_tmp.ts";
import { checkStaleness, isFresh } from "../fresh/check.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";

function home() {
  const root = tempDir("deja-notes-");
  const env = testEnv(join(root, "home"), { DEJA_HOME: join(root, "deja"), TZ: "UTC" });
  return { root, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

Deno.test("appendNote writes one redacted JSON line to a private notes file", () => {
  const h = home();
  try {
    const a = appendNote(h.env, "  deploy key is sk-ant-abcdefghijklmnopqrstuvwx, rotate it ", {
      cwd: "/w/app",
      tags: ["#ops", "secrets", " "],
      now: Date.parse("2026-11-29T08:00:00Z"),
    });
    assertEquals(a.path, join(h.root, "deja", "notes.jsonl"));
    assertEquals(a.path, notesPath(h.env));
    assertEquals(statSync(a.path).mode & 0o777, 0o600);
    assertEquals(statSync(dataDir(h.env)).mode & 0o777, 0o700);
    const line = JSON.parse(readFileSync(a.path, "utf8").trim());
    assertEquals(line, {
      ts: "2026-11-29T08:00:00.000Z",
      project: "/w/app",
      text: "deploy key is [redacted:anthropic_key], rotate it",
      tags: ["ops", "secrets"],
      day: "2026-11-29", // the writer's day, in its TZ (UTC here)
    });
    assertEquals(a.session, noteSessionId("/w/app", "2026-11-29"));
    assertThrows(() => appendNote(h.env, "   ", { cwd: "/" }), DejaError);
  } finally {
    h.cleanup();
  }
});

Deno.test("the same note again is the one kept: nothing written, its id given", () => {
  // Trial 98 F8: a note remembered twice was two notes; recall showed the first id, and
  // forgetting it left the other.
  const h = home();
  try {
    const at = { cwd: "/w/app", tags: ["gotcha", "k8s"] };
    const first = appendNote(h.env, "kustomize is not installed", {
      ...at,
      now: Date.parse("2026-11-29T08:00:00Z"),
    });
    const again = appendNote(h.env, "  kustomize is not installed ", {
      ...at,
      tags: ["k8s", "#gotcha"],
      now: Date.parse("2026-11-30T08:00:00Z"),
    });
    assertEquals([again.already, again.id, again.note.ts], [true, first.id, first.note.ts]);
    assertEquals(readFileSync(first.path, "utf8").trim().split("\n").length, 1);
    // Other tags, or another project, make another note.
    const tagged = appendNote(h.env, "kustomize is not installed", { cwd: "/w/app", tags: [] });
    const elsewhere = appendNote(h.env, "kustomize is not installed", { ...at, cwd: "/w/other" });
    assertEquals([tagged.already, elsewhere.already], [undefined, undefined]);
    assertEquals(readFileSync(first.path, "utf8").trim().split("\n").length, 3);
  } finally {
    h.cleanup();
  }
});

Deno.test("noteProject keeps a name, resolves a path, and defaults to the working directory", () => {
  const env = testEnv("/home/u");
  assertEquals(noteProject(env, undefined, "/w/app"), "/w/app");
  assertEquals(noteProject(env, "ops", "/w/app"), "ops");
  assertEquals(noteProject(env, "../lib", "/w/app"), "/w/lib");
  assertEquals(noteProject(env, "~/src/x", "/w/app"), "/home/u/src/x");
  assertEquals(localDay(Date.parse("2026-11-28T23:30:00Z"), "Asia/Tokyo"), "2026-11-29");
  assertEquals(localDay(Date.parse("2026-11-28T23:30:00Z"), "UTC"), "2026-11-28");
});

Deno.test("remember indexes the note at once, one session per project and day", async () => {
  const h = home();
  try {
    const t = Date.parse("2026-11-29T08:00:00Z");
    const one = await remember(h.env, "flaky login test: freeze the clock", {
      cwd: "/w/app",
      tags: ["tests"],
      now: t,
    });
    assertEquals([one.indexed, one.error], [true, undefined]);
    const two = await remember(h.env, "staging needs the VPN", { cwd: "/w/app", now: t + 3600e3 });
    const other = await remember(h.env, "ops note", { cwd: "/w/app", project: "ops", now: t });
    assertEquals(two.session, one.session);
    assert(other.session !== one.session);
    const store = Store.open(indexPath(h.env));
    try {
      const hit = search(store, "freeze clock");
      assertEquals(hit.results[0]?.harness, "deja");
      assertEquals(hit.results[0]?.id, one.session);
      assertEquals(search(store, "tests").results[0]?.id, one.session);
      const s = store.db.prepare(
        "SELECT events, started, updated, title FROM sessions WHERE native_id = ?",
      )
        .get(one.session) as Record<string, unknown>;
      assertEquals(s, {
        events: 2,
        started: t,
        updated: t + 3600e3,
        title: "Notes: app, 2026-11-29",
      });
    } finally {
      store.close();
    }
  } finally {
    h.cleanup();
  }
});

Deno.test("remember keeps the note when another index run holds the lock", async () => {
  const h = home();
  const lock = acquireWriterLock(dataDir(h.env), 0);
  try {
    const r = await remember(h.env, "written while busy", { cwd: "/w", waitMs: 0 });
    assertEquals(r.indexed, false);
    assert(r.error?.includes("busy"));
    assert(readFileSync(r.path, "utf8").includes("written while busy"));
  } finally {
    lock.release();
    h.cleanup();
  }
});

Deno.test("after remember, and after an index run, the freshness check finds the notes store fresh", async () => {
  const { root, env } = home();
  try {
    const fresh = () => {
      const s = Store.open(indexPath(env));
      try {
        return isFresh(checkStaleness(s, { env }));
      } finally {
        s.close();
      }
    };
    await runIndex(env, parsers);
    assert(fresh(), "fresh after the first index run");
    const r = await remember(env, "the notes store is watched", { cwd: "/w/app" });
    assert(r.indexed);
    assert(fresh(), "fresh after remember (it indexed the note)");
    await runIndex(env, parsers);
    assert(fresh(), "fresh after the next index run");
  } finally {
    rmSync(root, { recursive: true });
  }
});

// A fake home (session 13): `remember --project crush-k3s` filed the note under the literal
// name, so `--project crush-k3s-subagent` and the session-start hook in that directory missed it.
Deno.test("a --project name is filed under the indexed project it names, several are an error", async () => {
  const ix = await memIndex([
    { id: "a", project: "/w/projects/crush-k3s-subagent", events: [["user", "deploy k3s"]] },
    { id: "b", project: "/w/projects/crush-mcp", events: [["user", "mcp tool"]] },
    { id: "c", project: "/w/projects/app", events: [["user", "app"]] },
    { id: "d", project: "/w/old/app-v1", events: [["user", "app"]] },
  ]);
  try {
    const at = { cwd: "/w/elsewhere", now: Date.parse("2026-11-29T08:00:00Z") };
    const k3s = appendNote(ix.env, "the k3s token lives in vault", { ...at, project: "crush-k3s" });
    assertEquals(k3s.note.project, "/w/projects/crush-k3s-subagent");
    assertEquals(k3s.unmatched, undefined);
    // The last folder named exactly wins over paths that merely hold the name.
    assertEquals(notePlace(ix.env, "app", "/").project, "/w/projects/app");
    const e = assertThrows(() => appendNote(ix.env, "x", { ...at, project: "crush" }), DejaError);
    assertEquals((e as DejaError).exitCode, 2);
    assert((e as DejaError).hint?.includes("/w/projects/crush-mcp"), (e as DejaError).hint);
    const ops = appendNote(ix.env, "rotate the keys monthly", { ...at, project: "ops" });
    assertEquals([ops.note.project, ops.unmatched], ["ops", "ops"]);
  } finally {
    ix.cleanup();
  }
});

// A new-user trial (session 13): `--project 'C:\Users\user\dev\dashboard_mictlan'`, a project
// exactly as deja printed it, was filed under `/tmp/C:\Users\…` (resolved against the working
// directory); `--project ""` under the working directory; `crush-crush/..` under /tmp.
Deno.test("--project: an indexed project's exact path first, a Windows path never resolved, empty refused", async () => {
  const win = "C:\\Users\\user\\dev\\dashboard_mictlan";
  const ix = await memIndex([
    { id: "a", project: win, events: [["user", "dashboard"]] },
    { id: "b", project: "/w/projects/crush-crush", events: [["user", "crush"]] },
    { id: "c", project: "/home/u/src/tool", events: [["user", "tool"]] },
  ]);
  const cwd = tempDir("deja-notes-cwd-");
  try {
    mkdirSync(join(cwd, "sub"));
    const env = { ...ix.env, home: "/home/u" };
    const place = (p: string) => notePlace(env, p, cwd);
    assertEquals(place(win), { project: win });
    // As Windows folds case, and with either separator or a trailing one.
    assertEquals(place("c:\\users\\USER\\dev\\dashboard_mictlan"), { project: win });
    assertEquals(place("C:/Users/user/dev/dashboard_mictlan/"), { project: win });
    assertEquals(place("~/src/tool"), { project: "/home/u/src/tool" });
    // A Windows path no project is: kept as written (drive in upper case), with a warning.
    assertEquals(place("d:\\other\\x"), { project: "D:\\other\\x", unmatched: "D:\\other\\x" });
    assertEquals(noteProject(env, "C:\\x", "/tmp"), "C:\\x");
    for (const empty of ["", "  "]) {
      const e = assertThrows(() => place(empty), DejaError);
      assertEquals((e as DejaError).exitCode, 2);
    }
    // `..` from a folder that is not here: no path, so a part of a project's path (none).
    assertEquals(place("crush-crush/.."), {
      project: "crush-crush/..",
      unmatched: "crush-crush/..",
    });
    // From a folder that is here, or written `./…`/`../…`: a path from the working directory.
    assertEquals(place("sub/.."), { project: cwd });
    assertEquals(place("./sub"), { project: join(cwd, "sub") });
    // A part of a project's path with a separator, no folder here: that project.
    assertEquals(place("projects/crush-crush"), { project: "/w/projects/crush-crush" });
    // An absolute path that is no project and no directory: kept, with a warning.
    assertEquals(place("/nonexistent/dir"), {
      project: "/nonexistent/dir",
      unmatched: "/nonexistent/dir",
    });
    assertEquals(place(cwd), { project: cwd });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
    ix.cleanup();
  }
});
