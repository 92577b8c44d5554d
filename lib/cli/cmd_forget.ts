/** `deja forget`: remove sessions from the index for good (tombstones keep them out). */
import { existsSync } from "node:fs";
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, isoTime, opt, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { acquireWriterLock, indexPath, Store } from "../store.ts";
import { dataDir } from "../../core/paths.ts";
import { DejaError } from "../../core/errors.ts";
import { parseSince } from "../query.ts";
import { applyForget, planForget, unforget } from "../forget/forget.ts";
import { readTombstones, tombstoneFile } from "../forget/tombstones.ts";
import { runIndex } from "../indexer.ts";
import { parsers } from "../../parsers/mod.ts";

export const forgetCmd: CommandSpec = {
  usage: "forget (--session <id> | --project <text> | --before <date|30d>)... [--dry-run] " +
    "[--all-matches] | --list | --unforget <harness:id> [--json]",
  maxPositionals: 0,
  options: {
    session: { type: "string", value: "<id>", description: "a session id prefix (harness:id too)" },
    project: {
      type: "string",
      value: "<text>",
      description: "sessions whose project path contains this",
    },
    before: {
      type: "string",
      value: "<date|30d>",
      description: "sessions last active before this date (or this long ago)",
    },
    "dry-run": { type: "boolean", description: "list what would be forgotten, change nothing" },
    "all-matches": { type: "boolean", description: "forget every session an id prefix matches" },
    list: { type: "boolean", description: "list the forgotten sessions (tombstones)" },
    unforget: {
      type: "string",
      value: "<harness:id>",
      description: "lift a tombstone and read that session's store again",
    },
    json: { type: "boolean", description: "print as JSON (docs/json-output.md)" },
  },
  run: (a, io) => runForget(a, io),
};

async function runForget(a: Args, io: IO): Promise<number> {
  const path = indexPath(io.env);
  const c = colors(io);
  if (a.values.list) {
    const list = readTombstones(tombstoneFile(path));
    if (a.values.json) {
      printJson(io, { tombstones: list.map((t) => ({ ...t, at: isoTime(t.at) })) });
      return 0;
    }
    if (!list.length) {
      io.out("no forgotten sessions\n");
      return 0;
    }
    for (const t of list) {
      io.out(
        `${c.cyan(t.key)}  ${fmtTime(t.at)}  ${tilde(t.project, io.env.home)}  ${
          c.dim(t.reason)
        }\n`,
      );
      if (t.title) io.out(`  ${oneLine(t.title, 100)}\n`);
    }
    return 0;
  }
  const key = opt(a, "unforget");
  if (key !== undefined) {
    const lock = acquireWriterLock(dataDir(io.env), 0);
    let t;
    try {
      const store = existsSync(path) ? Store.open(path) : undefined;
      try {
        t = unforget(store, path, key);
      } finally {
        store?.close();
      }
    } finally {
      lock.release();
    }
    // Read its store again now, so the session is back at once.
    if (parsers.some((p) => p.id === t.harness)) {
      await runIndex(io.env, parsers, { only: [t.harness] });
    }
    if (a.values.json) printJson(io, { unforgotten: { ...t, at: isoTime(t.at) } });
    else io.out(`${c.cyan(t.key)} is back in the index\n`);
    return 0;
  }
  const beforeText = opt(a, "before");
  const before = beforeText === undefined ? undefined : parseSince(beforeText);
  if (beforeText !== undefined && before === undefined) {
    throw new DejaError(`--before takes a date or 30d, 12h, 2w, not '${beforeText}'`, undefined, 2);
  }
  const sel = {
    session: opt(a, "session"),
    project: opt(a, "project"),
    before,
    allMatches: Boolean(a.values["all-matches"]),
  };
  const reason = [
    sel.session !== undefined ? `--session ${sel.session}` : "",
    sel.project !== undefined ? `--project ${sel.project}` : "",
    beforeText !== undefined ? `--before ${beforeText}` : "",
  ].filter(Boolean).join(" ");
  const dry = Boolean(a.values["dry-run"]);
  const lock = dry ? undefined : acquireWriterLock(dataDir(io.env), 0);
  try {
    const store = Store.open(path);
    try {
      const plan = planForget(store, sel);
      const out = dry || !plan.sessions.length ? undefined : applyForget(store, plan, reason);
      if (a.values.json) {
        printJson(io, {
          dry_run: dry,
          sessions: plan.sessions.map((s) => ({
            harness: s.harness,
            id: s.native_id,
            project: s.project,
            title: s.title,
            updated: isoTime(s.updated),
            parent: s.parent,
          })),
          events: plan.events,
          forgotten: out?.sessions ?? 0,
          words_pruned: out?.wordsPruned ?? 0,
        });
        return plan.sessions.length ? 0 : 1;
      }
      if (!plan.sessions.length) {
        io.err(`deja: no session matches ${reason}\n`);
        return 1;
      }
      const lines = plan.sessions.map((s) =>
        `  ${c.cyan(`${s.harness}:${s.native_id}`)}  ${fmtTime(s.updated ?? s.started)}  ${
          tilde(s.project, io.env.home)
        }${s.title ? `  ${oneLine(s.title, 60)}` : ""}`
      );
      const n = plan.sessions.length;
      const head = dry
        ? `would forget ${n} session${n === 1 ? "" : "s"} (${plan.events} events):`
        : `forgot ${n} session${n === 1 ? "" : "s"} (${plan.events} events):`;
      io.out([head, ...lines].join("\n") + "\n");
      if (!dry) io.out(c.dim("they stay out of the index; deja forget --list shows them\n"));
      return 0;
    } finally {
      store.close();
    }
  } finally {
    lock?.release();
  }
}
