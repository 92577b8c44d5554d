/**
 * The blind held-out questions of the recall benchmark (kinds `blind` and
 * `blindneg`). Written blind: by someone who read what the generator writes
 * (bench/recall_world.ts, bench/gen_recall.ts) but saw no search code and no
 * result, and who never tuned a word of them against a run. Each question is
 * how a person who remembers a problem but not its words would ask for it: a
 * component described in other words, with the symptom it had or the cause
 * that was found, also in other words. {@link checkBlind} enforces that a
 * question shares at most one content word (after the index's own porter
 * stemming) with its target session's text, and throws otherwise, so the
 * bench fails at setup rather than measuring a question that gives itself
 * away.
 *
 * `blindneg` are near misses that are not in the history: a component of the
 * code base with a trouble it never had (one no session is about), and a
 * trouble the history knows on a component the code base does not have.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { rng } from "./gen_claude.ts";
import type { Case, History } from "./gen_recall.ts";
import { STOP_WORDS } from "../lib/query.ts";
import { tokens } from "../lib/search/tokenize.ts";

/** Two ways to name each component (keyed by its noun) without its words. */
export const BLIND_COMPONENTS: Record<string, [string, string]> = {
  checkout: ["the purchase finalisation", "where buyers finalise a purchase"],
  login: ["the sign-in prompt", "where people enter their password"],
  webhook: ["the callback our card processor hits", "the stripe callback receiver"],
  indexer: ["the full-text crawler", "whatever assembles our lookup catalogue"],
  resizer: ["the photo shrinking", "the picture scaler"],
  email: ["the outgoing mailer", "the smtp sender"],
  billing: ["the monthly dues collection", "the recurring subscription collection"],
  middleware: ["the credential gatekeeper in front of our urls", "the entitlement layer"],
  profile: ["the account details backend", "the personal particulars backend"],
  notification: ["the phone buzz dispatcher", "whatever pings people's phones"],
  exporter: ["the spreadsheet downloads", "the csv downloads"],
  limiter: ["the per-caller throttle", "the abuse throttling"],
  flags: ["the toggles system", "the dark-launch toggles"],
  session: ["where sign-in status lives", "the signed-in status storage"],
  upload: ["the attachment intake", "the document intake"],
  gateway: ["the federation layer", "the front door that stitches our backends together"],
  metrics: ["the telemetry flow", "stats collection"],
  pdf: ["the printable document maker", "printable paperwork"],
  daemon: ["the background mirroring process", "the replication process"],
  invoice: ["the accounts-receivable paperwork", "whatever drafts what subscribers owe"],
  cart: ["the basket", "the pre-purchase basket"],
  dashboard: ["the staff console", "the operators' control panel"],
  websocket: ["the realtime socket", "the live bidirectional channel"],
  audit: ["the compliance history", "the who-did-what trail"],
  geocoding: ["the street-to-coordinates lookup", "the latitude-longitude lookup"],
  thumbnail: ["the miniature previews", "the tiny preview pictures"],
  onboarding: ["the newcomer walkthrough", "the signup walkthrough"],
  translation: ["the localisation bundles", "the i18n bundles"],
  backup: ["the archival snapshots", "the disaster-recovery snapshotting"],
  recommendation: ["the suggestions engine", "the you-might-enjoy ranking"],
};

/** How a person recalls each symptom (keyed by its `word`); `{c}` is the component. */
export const BLIND_SYMPTOMS: Record<string, [string, string]> = {
  "502": [
    "why did visitors hit the upstream-unreachable notice from {c}",
    "{c} kept answering with the balancer's upstream complaint",
  ],
  timeout: ["why did {c} choke whenever traffic peaked", "{c} gave visitors nothing at rush hour"],
  leak: [
    "{c} ballooned in ram until the kernel killed it",
    "why was {c} oom-killed every morning",
  ],
  deadlock: ["{c} got wedged whenever we ran ddl", "why did {c} freeze as we altered its ddl"],
  twice: [
    "buyers saw two identical debits from {c}",
    "why were people debited double by {c}",
  ],
  drops: [
    "stuff quietly vanished somewhere inside {c}",
    "why did {c} misplace stuff without a trace",
  ],
  stale: ["{c} kept showing yesterday's figures", "why was {c} showing outdated facts"],
  crashes: ["{c} died the moment we launched it", "why wouldn't {c} boot"],
  hangs: ["{c} wouldn't quit on sigterm", "why did {c} sit there forever when we killed it"],
  logout: [
    "{c} unexpectedly ended people's visits",
    "why did {c} kick everybody to the sign-in prompt",
  ],
  blank: ["{c} showed visitors an empty white canvas", "why was {c} all white"],
  rejects: ["{c} turned away perfectly fine credentials", "why did {c} deny correct passwords"],
  corrupts: [
    "attachments arrived mangled via {c}",
    "why were documents garbled once {c} had them",
  ],
  timezone: [
    "people abroad saw {c} an hour adrift",
    "why did folks overseas have {c} at a bogus hour",
  ],
  duplicate: [
    "{c} mailed folks identical notices repeatedly",
    "why did {c} flood inboxes with repeats",
  ],
  cpu: ["{c} pegged the processor", "why were the fans screaming whenever {c} ran"],
  nightly: [
    "the 3am automated compile went red on {c}",
    "why did the unattended 3am compile keep going red on {c}",
  ],
  totals: ["the sums {c} showed were miscalculated", "why didn't the sums in {c} match"],
  retry: ["{c} kept reattempting endlessly", "why did {c} resend endlessly"],
  disk: ["{c} devoured every gigabyte on the volume", "why did {c} leave zero room on the drive"],
};

/** How a person recalls each cause (keyed by its `word`); `{c}` is the component. */
export const BLIND_CAUSES: Record<string, [string, string]> = {
  pool: [
    "{c} ran dry of sql sockets",
    "{c} had too few sql sockets to go around",
  ],
  index: [
    "{c} was doing sequential scans over purchases sorted by date",
    "why was {c} scanning every purchase row by date",
  ],
  race: [
    "two threads clobbering each other on the second attempt in {c}",
    "{c} had two concurrent attempts trampling each other",
  ],
  cache: [
    "{c} kept memoised lookups that outlived a structure overhaul",
    "memoised lookups in {c} survived a structure overhaul",
  ],
  cron: [
    "{c} followed the machine's wall clock rather than zulu",
    "the timer spec of {c} disregarded greenwich",
  ],
  unbounded: ["{c} had an ever-growing backlog nobody reined in", "a bottomless backlog in {c}"],
  serializer: [
    "{c} fired hundreds of tiny sql roundtrips per grid",
    "why did {c} hammer sql with a lookup per row",
  ],
  pagination: [
    "the continuation marker in {c} landed a position early",
    "{c} skipped a row at every boundary when scrolling",
  ],
  certificate: [
    "the encryption credentials of a host {c} talks to had lapsed",
    "{c} broke as an in-house host's encryption credentials lapsed",
  ],
  cors: [
    "browsers blocked fetches from our sister domain to {c}",
    "why did browsers deny cross-site fetches into {c}",
  ],
  overflow: [
    "a tally in {c} rolled around past two billion",
    "{c} tally went negative past two billion",
  ],
  await: [
    "{c} did fire-and-forget ahead of finalising its sql",
    "{c} had an async operation dangling unresolved",
  ],
  circular: [
    "a cycle of orm definitions referencing each other in {c}",
    "{c} orm definitions referenced each other in a ring",
  ],
  environment: [
    "the pod hosting {c} lacked a knob it relied on",
    "a knob the {c} pod never received",
  ],
  heartbeat: [
    "keepalive pings from {c} came too rarely for the balancer",
    "{c} links got severed as keepalive pings were too infrequent",
  ],
  rounding: [
    "fractional pennies drifted in {c} when exchanging euros for dollars",
    "{c} lost pennies converting euros to dollars",
  ],
  lock: [
    "{c} kept a mutex while talking to a remote host",
    "a mutex in {c} stayed taken throughout a remote roundtrip",
  ],
  idempotency: [
    "{c} never recognised repeat submissions as repeats",
    "resubmissions got processed by {c} as if fresh",
  ],
  backtracking: [
    "a runaway pattern matcher inside {c}",
    "a pattern match in {c} went exponential",
  ],
  pagesize: [
    "someone lifted the per-fetch row ceiling of {c}",
    "{c} began handing over endless rows per fetch",
  ],
};

/** Frames around a component + cause description (a question, or what a person types). */
const CAUSE_FRAMES = ["remember when {x}?", "{x}", "was it when {x}?", "what came of it when {x}"];

/** Troubles no session of the history has (near misses on a real component). */
const NEVER_HAPPENED = [
  "why did {c} show prices in roman numerals",
  "{c} sorted surnames backwards",
  "{c} printed everything upside down",
  "why did {c} greet people in klingon",
  "{c} forced the dark theme on everyone",
  "{c} only misbehaved on leap days",
  "why did {c} turn accented letters into question marks",
  "{c} played a chime at midnight",
  "{c} swapped first and last names",
  "why did {c} show prices in yen for germans",
  "{c} flickered on high-refresh monitors",
  "{c} mixed up left-handed and right-handed layouts",
  "why did {c} rotate portrait photos sideways",
  "{c} announced itself in a screen reader loop",
  "{c} stopped working after the clocks sprang forward in march",
];

/** Components the code base does not have. */
const NOT_OURS = [
  "the parking meter app",
  "the karaoke playlist",
  "the warehouse robot firmware",
  "the loyalty points wallet",
  "the barcode scanner",
  "the ride-hailing matcher",
  "the weather widget",
  "the video transcoder",
  "the vending kiosk",
  "the greenhouse sensor hub",
  "the flight seat picker",
  "the music tempo detector",
  "the fitness step tracker",
  "the hotel key-card encoder",
  "the chess move validator",
];

const fill = (tpl: string, c: string) => tpl.replaceAll("{c}", c);

/** A question in its kind with the sessions that answer it. */
export interface BlindQuery {
  kind: "blind" | "blindneg" | "blind2" | "blind2neg";
  query: string;
  relevant: string[];
}

/** The phrasings a blind set is made of, and the kinds its questions are reported as. */
export interface BlindTables {
  kind: "blind" | "blind2";
  neg: "blindneg" | "blind2neg";
  components: Record<string, [string, string]>;
  symptoms: Record<string, [string, string]>;
  causes: Record<string, [string, string]>;
  frames: string[];
  never: string[];
  notOurs: string[];
}

/** The first blind set (this module's phrasings). */
export const BLIND: BlindTables = {
  kind: "blind",
  neg: "blindneg",
  components: BLIND_COMPONENTS,
  symptoms: BLIND_SYMPTOMS,
  causes: BLIND_CAUSES,
  frames: CAUSE_FRAMES,
  never: NEVER_HAPPENED,
  notOurs: NOT_OURS,
};

/**
 * Makes `n` blind questions (one per planted case, two in three about the
 * symptom, the rest about the cause) and `neg` near-miss negatives, then
 * checks them with {@link checkBlind}.
 *
 * @throws Error when a question shares more than one content word with its session.
 */
export function makeBlind(
  h: History,
  n: number,
  neg: number,
  seed: number,
  t: BlindTables = BLIND,
): BlindQuery[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const out: BlindQuery[] = [];
  const cases = [...h.cases];
  for (let i = cases.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [cases[i], cases[j]] = [cases[j], cases[i]];
  }
  for (const c of cases.slice(0, n)) {
    const comp = pick(t.components[c.component.noun]);
    let q: string;
    if (r() < 2 / 3) q = fill(pick(t.symptoms[c.symptom.word]), comp);
    else {
      const x = fill(pick(t.causes[c.cause.word]), comp);
      q = pick(t.frames).replace("{x}", x);
    }
    out.push({ kind: t.kind, query: q, relevant: [c.session] });
  }
  // Near misses: a real component with a trouble that never happened, and a real trouble
  // on a component that does not exist.
  for (let i = 0; i < neg; i++) {
    if (i % 2 === 0) {
      const noun = pick(Object.keys(t.components));
      out.push({
        kind: t.neg,
        query: fill(t.never[(i / 2) % t.never.length], pick(t.components[noun])),
        relevant: [],
      });
    } else {
      const symptom = pick(Object.keys(t.symptoms));
      const comp = t.notOurs[((i - 1) / 2) % t.notOurs.length];
      out.push({
        kind: t.neg,
        query: fill(pick(t.symptoms[symptom]), comp),
        relevant: [],
      });
    }
  }
  checkBlind(h, out, cases);
  return out;
}

/** Content words of a question: index tokens that are not stop words, each once. */
export function contentWords(q: string): string[] {
  return [...new Set(tokens(q).filter((t) => !STOP_WORDS.has(t)))];
}

/**
 * The content words of `q` that the session's text holds, matched the way the
 * index matches (FTS5 `porter unicode61`, so `charged` meets `charges`).
 */
function sharedWith(db: DatabaseSync, rowid: number, q: string): string[] {
  const st = db.prepare("SELECT 1 FROM t WHERE t MATCH ? AND rowid = ?");
  return contentWords(q).filter((w) => st.get(`"${w}"`, rowid) !== undefined);
}

/**
 * Throws when a blind question shares more than one content word with the
 * text of its target session (every text the generator wrote into it, its
 * project path and the tool names), listing every offending question.
 */
export function checkBlind(h: History, qs: BlindQuery[], cases: Case[]): void {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(
      "CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2')",
    );
    const rowOf = new Map<string, number>();
    const ins = db.prepare("INSERT INTO t(rowid, body) VALUES (?, ?)");
    for (const c of cases) {
      const toks = [...(h.tokensOf.get(c.session) ?? [])];
      rowOf.set(c.session, rowOf.size + 1);
      ins.run(rowOf.size, `${toks.join(" ")} ${c.project} Bash Read Edit exit code`);
    }
    const bad: string[] = [];
    for (const q of qs) {
      if (q.kind !== "blind" && q.kind !== "blind2") continue;
      const shared = sharedWith(db, rowOf.get(q.relevant[0])!, q.query);
      if (shared.length > 1) bad.push(`  ${JSON.stringify(q.query)} shares ${shared.join(", ")}`);
    }
    if (bad.length) {
      throw new Error(
        `blind recall questions share more than one content word with their session:\n${
          bad.join("\n")
        }`,
      );
    }
  } finally {
    db.close();
  }
}
