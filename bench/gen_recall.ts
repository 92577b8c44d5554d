/**
 * Generates the recall benchmark's history: Claude Code sessions about an
 * imaginary code base, each *target* session holding one planted piece of
 * work (a component with a symptom, a cause found, a fix made, an identifier,
 * an error message), among distractors that share its words: other work on
 * the same components, earlier attempts that gave up, replays of the same
 * session in throwaway eval directories, marathon sessions that mention
 * everything in passing, and pasted log dumps. The labelled queries
 * (bench/recall_queries.ts) come from what was planted: ground truth is the
 * generator's, never a search's.
 *
 * Deterministic for a seed.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./gen_claude.ts";
import { ClaudeSession } from "./recall_claude.ts";
import {
  CAUSES,
  type Component,
  COMPONENTS,
  ERRORS,
  FILLER,
  FIXES,
  FORMS,
  NOUNS,
  SYMPTOMS,
  TECHS,
  VERBS,
} from "./recall_world.ts";

/** One planted piece of work. */
export interface Case {
  /** Session id of the session where the work happened. */
  session: string;
  project: string;
  component: Component;
  symptom: (typeof SYMPTOMS)[number];
  cause: (typeof CAUSES)[number];
  fix: string;
  tech: string;
  /** camelCase identifier named in the session (`refreshSessionToken`). */
  identifier: string;
  /** The identifier's unique tail (`SessionToken`). */
  fragment: string;
  /** Error template and the values it was written with. */
  error: { template: string; text: string };
  /** A word of FORMS written in the session (its other forms are not). */
  formWord: string;
  /** Epoch ms the session ended. */
  end: number;
}

/** What a generated session is. */
export type SessionKind = "target" | "gave_up" | "throwaway" | "other" | "marathon" | "paste";

/** The generated history. */
export interface History {
  cases: Case[];
  /** Tokens of every session (for the query generator's checks of what is literally there). */
  tokensOf: Map<string, Set<string>>;
  /** Session ids, with what each one is. */
  sessions: Map<string, SessionKind>;
  files: number;
  bytes: number;
  /** "Now" for the queries: a day after the last session. */
  now: number;
  /** `noun|symptom word` of every session that was about a component's symptom. */
  about: string[];
}

const DAY = 86400e3;

/** Options of {@link generateHistory}. */
export interface HistoryOptions {
  /** Target sessions (planted work). */
  targets: number;
  /** Other sessions beside them. */
  distractors: number;
  seed: number;
}

/** Writes the history under `<out>/projects/` and returns what was planted. */
export function generateHistory(out: string, o: HistoryOptions): History {
  const r = rng(o.seed);
  // Its own stream, so the rest of a seed's history stays as it was: whether a session that is
  // not a target says "since the last deploy" too. Only targets said it until issue 15's
  // fourteenth session, and the head rerank's feedback (lib/search/fielded.ts) learnt it: the
  // words the top sessions share were often `since`, `last` and `deploy`, which lifted planted
  // targets over the other work for a reason no real history gives.
  const said = rng(o.seed * 7919 + 1);
  const deploy = () => (said() < 0.5 ? " since the last deploy" : "");
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const uuid = () => {
    const h = () => Math.floor(r() * 16).toString(16);
    const s = (n: number) => Array.from({ length: n }, h).join("");
    return `${s(8)}-${s(4)}-4${s(3)}-a${s(3)}-${s(12)}`;
  };
  // Zipf-like filler: index floor(n^(u^2)) favours the first words.
  const word = () =>
    FILLER[Math.min(FILLER.length - 1, Math.floor(Math.pow(FILLER.length, Math.pow(r(), 2))) - 1)];
  const sentence = (n: number) => {
    const s = Array.from({ length: n }, word).join(" ");
    return s[0].toUpperCase() + s.slice(1) + ".";
  };
  const prose = (sentences: number) =>
    Array.from({ length: sentences }, () => sentence(int(6, 18))).join(" ");
  const projects = Array.from(
    { length: 10 },
    (_, i) =>
      `/home/dev/work/${
        ["shop", "api", "web", "infra", "ml", "mobile", "docs", "billing", "search", "ops"][i]
      }`,
  );
  const start = Date.parse("2026-06-01T09:00:00Z");
  const span = 120 * DAY;
  const now = start + span + DAY;

  const tokensOf = new Map<string, Set<string>>();
  const kinds: History["sessions"] = new Map();
  let files = 0;
  let bytes = 0;
  const write = (s: ClaudeSession, kind: SessionKind, text: string[]) => {
    const dir = join(out, "projects", s.cwd.replaceAll("/", "-").replaceAll(".", "-"));
    mkdirSync(dir, { recursive: true });
    const body = s.jsonl();
    writeFileSync(join(dir, `${s.id}.jsonl`), body);
    files++;
    bytes += body.length;
    kinds.set(s.id, kind);
    const toks = new Set<string>();
    for (const t of text) {
      for (const w of t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) toks.add(w);
    }
    tokensOf.set(s.id, toks);
  };
  /** A session whose every text is also collected for the token sets. */
  const open = (cwd: string, at: number) => {
    const s = new ClaudeSession(uuid(), cwd, at, () => int(5, 90) * 1000);
    const texts: string[] = [];
    const rec = {
      s,
      texts,
      user: (t: string) => (texts.push(t), s.user(t), rec),
      assistant: (t: string) => (texts.push(t), s.assistant(t), rec),
      bash: (c: string, o: string, e = false) => (texts.push(c, o), s.bash(c, o, e), rec),
      read: (p: string, c: string) => (texts.push(p, c), s.read(p, c), rec),
      edit: (p: string, a: string, b: string) => (texts.push(p, a, b), s.edit(p, a, b), rec),
      chatter: (turns: number) => {
        for (let i = 0; i < turns; i++) {
          rec.user(prose(int(1, 3)));
          if (r() < 0.5) rec.bash(`npm run ${word()} -- --${word()}`, prose(int(2, 12)));
          if (r() < 0.3) rec.read(`src/${word()}/${word()}.ts`, prose(int(4, 20)));
          rec.assistant(prose(int(1, 5)));
        }
        return rec;
      },
    };
    return rec;
  };
  const fill = (tpl: string, seedWord: string) =>
    tpl.replaceAll("{w}", seedWord).replace(/\{n\}/g, () => String(int(2, 65000))).replace(
      /\{p\}/g,
      () => `/srv/app/releases/${int(100, 999)}/${word()}/${word()}.js`,
    );

  // --- the planted cases -------------------------------------------------
  const cases: Case[] = [];
  const usedFragments = new Set<string>();
  const usedPairs = new Set<string>();
  const usedTargetCauses = new Set<string>();
  const formKeys = Object.keys(FORMS);
  for (let i = 0; i < o.targets; i++) {
    let component: Component, symptom: Case["symptom"];
    do {
      component = pick(COMPONENTS);
      symptom = pick(SYMPTOMS);
    } while (usedPairs.has(`${component.noun}|${symptom.word}`));
    usedPairs.add(`${component.noun}|${symptom.word}`);
    let ci: number;
    do ci = Math.floor(r() * CAUSES.length); while (
      usedTargetCauses.has(`${component.noun}|${ci}`)
    );
    usedTargetCauses.add(`${component.noun}|${ci}`);
    let fragment: string;
    do fragment = pick(NOUNS) + pick(NOUNS); while (
      usedFragments.has(fragment) || /(\w+)\1/.test(fragment)
    );
    usedFragments.add(fragment);
    const identifier = pick(VERBS) + fragment;
    const et = pick(ERRORS);
    cases.push({
      session: "",
      project: pick(projects),
      component,
      symptom,
      cause: CAUSES[ci],
      fix: FIXES[ci],
      tech: pick(TECHS),
      identifier,
      fragment,
      error: {
        template: et,
        text: fill(et, `${identifier.slice(0, 1).toLowerCase()}${identifier.slice(1)}`),
      },
      formWord: pick(formKeys),
      end: 0,
    });
  }

  const targetSession = (c: Case, cwd: string, at: number) => {
    const w = open(cwd, at);
    const file = `src/${c.component.noun}/${c.identifier}.ts`;
    w.user(
      `The ${c.component.name} ${c.symptom.text} since the last deploy. ${prose(1)}` +
        (r() < 0.4 ? `\nI see this:\n${c.error.text}` : ""),
    );
    w.assistant(`Let me look at ${c.identifier} in ${file} first. ${prose(1)}`);
    w.bash(
      `grep -rn "${c.identifier}" src/`,
      `${file}:${int(10, 300)}:export function ${c.identifier}(`,
    );
    w.chatter(int(1, 6));
    w.bash(
      `npm test -- ${c.component.noun}`,
      `${prose(2)}\n${c.error.text}\n    at ${c.identifier} (${file}:${int(10, 300)}:${
        int(2, 40)
      })\n${prose(1)}`,
      true,
    );
    w.assistant(
      `The test reproduces it. This goes through ${c.tech}; the ${c.formWord} look involved. ${
        prose(2)
      }`,
    );
    w.chatter(int(2, 12));
    w.assistant(`Found it. The root cause was ${c.cause.text}. I ${c.fix}. ${prose(1)}`);
    w.edit(file, `// ${c.cause.word}: ${prose(1)}`, `// fixed: ${c.fix}`);
    w.bash(`npm test -- ${c.component.noun}`, `PASS ${file}\n${prose(1)}`);
    w.user(
      pick([
        "Great, that works now.",
        "Thanks, ship it.",
        "Looks good, merging.",
        "Confirmed fixed in staging.",
      ]),
    );
    if (r() < 0.4) w.chatter(int(1, 4));
    return w;
  };

  for (const c of cases) {
    const at = start + Math.floor(r() * (span - 3 * DAY));
    // An earlier attempt at the same problem that gave up.
    if (r() < 0.2) {
      const g = open(c.project, at - int(1, 5) * DAY);
      g.user(`The ${c.component.name} ${c.symptom.text}${deploy()}. ${prose(1)}`);
      g.assistant(`Looking at the ${c.component.noun} code and ${c.tech}. ${prose(2)}`);
      g.chatter(int(2, 8));
      g.assistant(`I wasn't able to find the cause. I've reverted my changes; ${prose(1)}`);
      write(g.s, "gave_up", g.texts);
    }
    const w = targetSession(c, c.project, at);
    c.session = w.s.id;
    c.end = w.s.last;
    write(w.s, "target", w.texts);
    // A replay of the same work in an eval harness's temp directory.
    if (r() < 0.15) {
      const t = targetSession(
        c,
        `/tmp/tmp.${uuid().slice(0, 8)}/${c.project.split("/").pop()}`,
        at + int(1, 3) * DAY,
      );
      write(t.s, "throwaway", t.texts);
    }
  }

  // --- distractors ---------------------------------------------------------
  // Other work never repeats a target's component with its cause: that would be the same work.
  const usedCauses = new Set(cases.map((c) => `${c.component.noun}|${c.cause.word}`));
  const aboutOther: string[] = [];
  for (let i = 0; i < o.distractors; i++) {
    const at = start + Math.floor(r() * span);
    const roll = r();
    if (roll < 0.55) {
      // Other work: a component, a symptom and a cause no target has together.
      let component: Component, symptom: Case["symptom"], ci: number;
      do {
        component = pick(COMPONENTS);
        symptom = pick(SYMPTOMS);
        ci = Math.floor(r() * CAUSES.length);
      } while (
        usedPairs.has(`${component.noun}|${symptom.word}`) ||
        usedCauses.has(`${component.noun}|${CAUSES[ci].word}`)
      );
      aboutOther.push(`${component.noun}|${symptom.word}`);
      const w = open(pick(projects), at);
      w.user(`The ${component.name} ${symptom.text}${deploy()}. ${prose(1)}`);
      w.chatter(int(2, 10));
      w.assistant(`The root cause was ${CAUSES[ci].text}. I ${FIXES[ci]}.`);
      w.chatter(int(0, 3));
      write(w.s, "other", w.texts);
    } else if (roll < 0.7) {
      // A marathon: many components, each mentioned in passing, one other word beside it.
      const w = open(pick(projects), at);
      w.user(`Weekly cleanup. ${prose(2)}`);
      for (let k = 0; k < int(25, 60); k++) {
        const c = pick(COMPONENTS);
        w.user(`Now the ${c.name}. ${prose(1)}`);
        w.bash(`npm run lint -- ${c.noun}`, prose(int(2, 8)));
        const other = pick([
          pick(CAUSES).word,
          pick(TECHS),
          pick(SYMPTOMS).word,
          pick(Object.keys(FORMS)),
        ]);
        w.assistant(`${prose(1)} ${other} ${prose(1)}`);
      }
      write(w.s, "marathon", w.texts);
    } else if (roll < 0.8) {
      // A pasted log dump about one or two components and the tools they run on.
      const w = open(pick(projects), at);
      const comps = [pick(COMPONENTS), pick(COMPONENTS)];
      const techs = [pick(TECHS), pick(TECHS)];
      const lines = Array.from({ length: int(40, 120) }, () => {
        const c = pick(comps);
        return `2026-07-${String(int(1, 28)).padStart(2, "0")}T10:${int(10, 59)}:00Z ${
          pick(["INFO", "INFO", "WARN", "ERROR"])
        } [${c.noun}] ${pick(techs)} ${r() < 0.2 ? fill(pick(ERRORS), word()) : prose(1)}`;
      });
      w.user(lines.join("\n"));
      w.assistant(`That log is mostly noise. ${prose(2)}`);
      write(w.s, "paste", w.texts);
    } else {
      const w = open(pick(projects), at);
      w.chatter(int(3, 20));
      write(w.s, "other", w.texts);
    }
  }
  return {
    cases,
    tokensOf,
    sessions: kinds,
    files,
    bytes,
    now,
    about: [...usedPairs, ...aboutOther],
  };
}
