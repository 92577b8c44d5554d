/**
 * `deja stats`: what the index holds, and the secrets it redacted.
 *
 * Parse ({@link parseStats}) → run ({@link statsData}) → render ({@link statsJson}, {@link statsText}).
 *
 * @module
 */
import type { Args, CommandSpec } from "./common.ts";
import type { IO } from "../../core/runtime.ts";
import type { Env } from "../../core/model.ts";
import { colors, fmtTime, isoTime, printJson } from "./common.ts";
import { damageNote } from "../fresh/freshen.ts";
import { plural, tilde } from "../../core/text.ts";
import { indexPath, Store } from "../store.ts";
import { type IndexStats, indexStats } from "../stats.ts";

export const statsCmd: CommandSpec = {
  usage: "stats [--json]",
  maxPositionals: 0,
  options: { json: { type: "boolean", description: "print as JSON (docs/json-output.md)" } },
  run: (a, io) => Promise.resolve(runStats(a, io)),
};

/** What `deja stats` was asked. */
export interface StatsArgs {
  json: boolean;
}

/** Reads `deja stats`' arguments. */
export function parseStats(a: Args): StatsArgs {
  return { json: Boolean(a.values.json) };
}

/**
 * What the index at `env` holds, seen from directory `here` (never throwaway).
 *
 * @throws {DejaError} when there is no index
 */
export function statsData(env: Env, here?: string): IndexStats {
  const path = indexPath(env);
  const store = Store.open(path);
  try {
    return indexStats(store, path, env, here);
  } finally {
    store.close();
  }
}

/** The `--json` document (docs/json-output.md, `stats`). */
export function statsJson(st: IndexStats): Record<string, unknown> {
  return {
    ...st,
    exclude_patterns: st.excludePatterns,
    excludePatterns: undefined,
    more_projects: st.moreProjects,
    moreProjects: undefined,
    subagents_alone: st.subagentsAlone,
    subagentsAlone: undefined,
    no_project: st.noProject,
    noProject: undefined,
    harnesses: st.harnesses.map((h) => ({
      harness: h.harness,
      sessions: h.sessions,
      events: h.events,
      first: isoTime(h.first),
      last: isoTime(h.last),
      time_from_file: h.timeFromFile,
      file_dated: h.fileDated,
      undated: h.undated,
    })),
  };
}

/** The index's contents as text (colour on a terminal). */
export function statsText(st: IndexStats, io: Pick<IO, "isTTY" | "env">): string {
  const c = colors(io);
  const mb = (st.bytes / (1 << 20)).toFixed(1);
  const out = [
    `${c.bold("index")}      ${tilde(st.index, io.env.home)}  ${mb} MiB, schema ${st.schema}`,
    `${c.bold("totals")}     ${plural(st.sessions, "session")}, ${plural(st.events, "event")}, ${
      plural(st.sources, "store")
    }, ${plural(st.words, "word")}`,
  ];
  // Trial 37: three subagents whose parent was not indexed were listed by `last` and left
  // out of this count.
  const filed = st.subagents &&
    `${st.subagents} of the sessions ${
      st.subagents === 1 ? "is a subagent, filed under its" : "are subagents, filed under their"
    } parent session`;
  const alone = st.subagentsAlone &&
    `${st.subagentsAlone} ${filed ? "more" : "of the sessions"} ${
      st.subagentsAlone === 1 ? "is a subagent" : "are subagents"
    } listed on ${st.subagentsAlone === 1 ? "its" : "their"} own, the parent not in the index`;
  if (filed || alone) out.push(c.dim(`           ${[filed, alone].filter(Boolean).join("; ")}`));
  const fromRemotes = remoteCounts(st);
  // trial 101 F4: a remote's sessions were in the harnesses' counts, unsaid.
  if (st.machines.length > 1) {
    out.push(c.dim(
      `           ${
        st.machines.map((m) =>
          `${m.sessions} from ${m.origin === null ? "this machine" : `${m.origin} (remote)`}`
        ).join(", ")
      }`,
    ));
  }
  for (const h of st.harnesses) {
    const remote = fromRemotes.get(h.harness);
    out.push(
      `  ${h.harness.padEnd(10)} ${plural(h.sessions, "session ", "sessions").padStart(15)} ${
        plural(h.events, "event ", "events").padStart(15)
      }  ${fmtTime(h.first)} .. ${fmtTime(h.last)}${
        h.timeFromFile
          ? c.dim(` (file time${undatedNote(h.undated, h.sessions)})`)
          : h.fileDated
          ? c.dim(
            `  (${h.fileDated} of them dated only by file time, outside this range${
              undatedNote(h.undated, h.fileDated)
            })`,
          )
          : ""
      }${remote ? c.dim(`  (${remote} of them from remotes)`) : ""}`,
    );
  }
  if (st.projects.length) out.push(c.bold("projects"));
  for (const p of st.projects) {
    out.push(
      `  ${String(p.sessions).padStart(6)}  ${tilde(p.project, io.env.home)}`,
    );
  }
  const more = st.moreProjects;
  if (more.projects) {
    out.push(c.dim(
      `  … ${plural(more.projects, "more project")} (${plural(more.sessions, "session")})`,
    ));
  }
  // trial 101 F5: sessions with no project were in no line of the list.
  if (st.noProject && (st.projects.length || more.projects)) {
    out.push(c.dim(`  ${String(st.noProject).padStart(6)}  (no project)`));
  }
  const kinds = Object.entries(st.redacted).sort((x, y) => y[1] - x[1]);
  out.push(
    `${c.bold("redacted")}   ${
      kinds.length ? kinds.map(([k, n]) => `${n} ${k}`).join(", ") : "nothing"
    }`,
  );
  const stores = new Set(st.redactions.map((r) => r.source)).size;
  if (stores) {
    out.push(c.dim(`           in ${plural(stores, "store")}; --json lists them`));
  }
  out.push(
    `${
      c.bold("hidden")
    }     ${st.throwaway} throwaway, ${st.excluded} excluded, ${st.forgotten} forgotten`,
  );
  if (st.excludePatterns) {
    out.push(c.dim(
      `           ${st.excludePatterns} exclude pattern${
        st.excludePatterns === 1 ? "" : "s"
      }: matching sessions are not indexed (excluded counts those indexed before)`,
    ));
  }
  return out.join("\n") + "\n";
}

/** Per harness, its sessions read from remotes (none when there is no remote). */
function remoteCounts(st: IndexStats): Map<string, number> {
  const n = new Map<string, number>();
  for (const m of st.machines) {
    if (m.origin === null) continue;
    for (const h of m.harnesses) n.set(h.harness, (n.get(h.harness) ?? 0) + h.sessions);
  }
  return n;
}

/**
 * How many of `of` file-dated sessions are prompt histories, undated (lib/session_time.ts):
 * `; 1 of those a prompt history, undated`; "" when none.
 */
function undatedNote(undated: number, of: number): string {
  if (!undated) return "";
  if (undated === of) {
    return of === 1 ? "; a prompt history, undated" : "; all prompt histories, undated";
  }
  return `; ${undated} of those ${
    undated === 1 ? "a prompt history" : "prompt histories"
  }, undated`;
}

function runStats(a: Args, io: IO): number {
  const args = parseStats(a);
  const st = statsData(io.env, io.cwd);
  if (args.json) printJson(io, statsJson(st));
  else io.out(statsText(st, io));
  io.err(damageNote(io.env));
  return 0;
}
