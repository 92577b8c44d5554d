/**
 * After a harness ran: index its store with deja (in process, DEJA_HOME in the
 * run directory) and check what the scenario left there. Each check is
 * `ok: true` (holds), `false` (does not) or `null` (does not apply to this
 * harness, with the reason in `detail`).
 *
 * @module
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { makeEnv } from "../../core/runtime.ts";
import { runIndex } from "../../lib/indexer.ts";
import { indexPath, Store } from "../../lib/store.ts";
import { search } from "../../lib/search.ts";
import { parsers } from "../../parsers/mod.ts";
import type { FarmHarness } from "./harness.ts";
import type { LoggedRequest } from "./mock_model.ts";
import type { Played } from "./play.ts";
import {
  EDIT_FILE,
  EDIT_OLD,
  FAIL_CMD,
  FAIL_EXIT,
  markers,
  type Scenario,
  WRITE_FILE,
} from "./_mock_script.ts";

/** One check of a run. */
export interface Check {
  name: string;
  ok: boolean | null;
  detail: string;
}

/** What indexing found. */
export interface IndexFacts {
  sessions: number;
  events: number;
  skipped: Record<string, number>;
  errors: string[];
}

const MODEL_ROUTES = ["anthropic", "chat", "responses", "gemini", "augment"];

/** Checks on the mock's log alone: the harness talked to the mock, and to nothing else. */
export function logChecks(log: LoggedRequest[]): { checks: Check[]; outbound: string[] } {
  const model = log.filter((r) => MODEL_ROUTES.includes(r.route));
  const main = model.filter((r) => r.reply?.turn === "main");
  const outbound = [...new Set(log.filter((r) => r.route === "outbound").map((r) => r.path))];
  return {
    checks: [{
      name: "mock",
      ok: main.length > 0,
      detail:
        `${model.length} model requests (${main.length} in the task turn), ${log.length} in all`,
    }],
    outbound,
  };
}

type Row = Record<string, unknown>;

/** Indexes the run's store and checks it against scenario `s`. */
export async function storeChecks(
  h: FarmHarness,
  s: Scenario,
  dir: string,
  played: Played,
  log: LoggedRequest[],
): Promise<{ checks: Check[]; facts: IndexFacts }> {
  const env = makeEnv({ ...played.env, DEJA_HOME: join(dir, "deja") }, played.env.HOME);
  const res = await runIndex(env, parsers, { only: [h.parser!] });
  const sum = res.harnesses[0];
  const facts: IndexFacts = {
    sessions: sum?.sessions ?? 0,
    events: sum?.events ?? 0,
    skipped: sum?.skipped ?? {},
    errors: sum?.errors ?? [],
  };
  const m = markers(s.id);
  const project = realpathSync(join(dir, "project"));
  const store = Store.open(indexPath(env));
  try {
    const q = (sql: string, ...a: Array<string | number>) =>
      store.db.prepare(sql).all(...a) as Row[];
    const checks: Check[] = [];
    const hit = search(store, m.answer, { harness: [h.parser!] }).results[0];
    const mainId = hit?.snippets[0]?.session ?? "";
    const main =
      q("SELECT * FROM sessions WHERE harness = ? AND native_id = ?", h.parser!, mainId)[0];
    checks.push({
      name: "marker",
      ok: !!main,
      detail: main
        ? `found in session ${
          mainId.slice(0, 12)
        } (${facts.sessions} sessions, ${facts.events} events)`
        : `'${m.answer}' not found (${facts.sessions} sessions, ${facts.events} events${
          facts.errors.length ? `; ${facts.errors[0]}` : ""
        })`,
    });
    if (main) {
      const ok = main.project === project;
      checks.push({
        name: "project",
        ok,
        detail: ok ? "cwd recorded" : `project is ${main.project}`,
      });
    }
    const mine = `session_id IN (SELECT id FROM sessions WHERE harness = '${h.parser}')`;
    const fails = q(`SELECT * FROM commands WHERE ${mine} AND command LIKE ?`, `%${FAIL_CMD}%`);
    const withExit = fails.find((c) => c.exit === FAIL_EXIT);
    const flagged = fails.find((c) =>
      c.is_error === 1 || (typeof c.exit === "number" && c.exit !== 0)
    );
    checks.push(
      !s.steps.includes("fail")
        ? { name: "failed command", ok: null, detail: "not in the scenario" }
        : h.exitCodes === false
        ? {
          name: "failed command",
          ok: !!flagged,
          detail: flagged
            ? "recorded as an error (the store keeps no exit code)"
            : `${fails.length} '${FAIL_CMD}' commands, none failed`,
        }
        : {
          name: "failed command",
          ok: !!withExit,
          detail: withExit
            ? `exit ${FAIL_EXIT} recorded`
            : fails.length
            ? `'${FAIL_CMD}' recorded with exit ${fails.map((c) => c.exit).join("/")}`
            : `'${FAIL_CMD}' not recorded`,
        },
    );
    const readme = join(project, EDIT_FILE);
    const files = q(`SELECT * FROM files WHERE ${mine}`);
    if (s.steps.includes("edit")) {
      const want = `hello ${m.edit}`;
      const span = files.find((f) =>
        f.path === readme && f.op === "edit" && String(f.old).includes(EDIT_OLD) &&
        String(f.new).includes(want)
      );
      const whole = files.find((f) =>
        f.path === readme && f.op === "write" && String(f.new).includes(want)
      );
      const ok = h.editVia === "write" ? !!(span ?? whole) : !!span;
      checks.push({
        name: "edit",
        ok,
        detail: span
          ? "replaced span recorded"
          : whole
          ? "recorded as a whole-file write"
          : `${
            files.filter((f) => f.path === readme).length
          } rows for ${EDIT_FILE}, no '${EDIT_OLD}' -> '${want}' span`,
      });
    }
    if (s.steps.includes("write")) {
      const w = files.find((f) =>
        f.path === join(project, WRITE_FILE) && f.op === "write" && String(f.new).includes(m.write)
      );
      checks.push({
        name: "write",
        ok: !!w,
        detail: w ? "written lines recorded" : `no write of ${WRITE_FILE} with '${m.write}'`,
      });
    }
    checks.push(followupCheck(h, store, mainId, m.followup, played));
    if (s.steps.includes("subagent")) checks.push(subagentCheck(h, q, mainId, m.subagent, log));
    else {checks.push({
        name: "subagent",
        ok: null,
        detail: "the farm does not start its subagents",
      });}
    if (typeof h.compact !== "function") {
      const why = h.compact?.none ?? "no compaction command without a terminal is known";
      checks.push({ name: "summary", ok: null, detail: why });
    } else {
      const sum = q(
        `SELECT s.native_id AS sid FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.harness = ? AND e.kind = 'summary' AND e.text LIKE ?`,
        h.parser!,
        `%${m.summary}%`,
      );
      const served = log.some((r) => r.reply?.turn === "compact");
      checks.push({
        name: "summary",
        ok: sum.length > 0,
        detail: sum.length
          ? `summary event in ${
            sum[0].sid === mainId
              ? "the same session"
              : `session ${String(sum[0].sid).slice(0, 12)}`
          }`
          : served
          ? "the mock served a summary; no summary event indexed"
          : "the harness asked for no summary",
      });
    }
    return { checks, facts };
  } finally {
    store.close();
  }
}

function followupCheck(
  h: FarmHarness,
  store: Store,
  mainId: string,
  word: string,
  played: Played,
): Check {
  if (!h.followup) return { name: "second turn", ok: null, detail: "no resume command known" };
  if ("none" in h.followup) return { name: "second turn", ok: null, detail: h.followup.none };
  if (played.notRun.followup) {
    return { name: "second turn", ok: false, detail: played.notRun.followup };
  }
  const hit = search(store, word, { harness: [h.parser!] }).results[0];
  const where = hit?.snippets[0]?.session;
  return {
    name: "second turn",
    ok: !!where && where === mainId,
    detail: !where
      ? `'${word}' not found`
      : where === mainId
      ? "same session"
      : `landed in session ${where.slice(0, 12)}, not ${mainId.slice(0, 12)}`,
  };
}

function subagentCheck(
  h: FarmHarness,
  q: (sql: string, ...a: Array<string | number>) => Row[],
  mainId: string,
  word: string,
  log: LoggedRequest[],
): Check {
  const asked = log.some((r) => r.reply?.turn === "subagent");
  const kids = q("SELECT * FROM sessions WHERE harness = ? AND parent = ?", h.parser!, mainId);
  const withWord = q(
    `SELECT s.native_id AS sid, s.parent AS parent FROM events e JOIN sessions s ON s.id = e.session_id
     WHERE s.harness = ? AND s.native_id != ? AND e.text LIKE ? LIMIT 1`,
    h.parser!,
    mainId,
    `%${word}%`,
  )[0];
  const ok = kids.length > 0 && !!withWord && withWord.parent === mainId;
  return {
    name: "subagent",
    ok,
    detail: ok
      ? `${kids.length} subagent session(s) filed under the parent`
      : !asked
      ? "the subagent never reached the mock (no agent tool, or the harness did not start it)"
      : withWord
      ? `subagent session ${String(withWord.sid).slice(0, 12)} has parent ${
        withWord.parent ?? "none"
      }`
      : `${kids.length} child sessions; no session but the parent holds '${word}'`,
  };
}
