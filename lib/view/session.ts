/**
 * A session's page (`/session?h=<harness>&id=<native id>`): the transcript as
 * turns — user and assistant text, tool calls with their arguments and their
 * results, commands with their outcome (lib/memory/outcome.ts), edits as
 * diffs, written files, subagents nested where they started, compaction
 * summaries marked — with copy buttons for `deja resume` and `deja ctx`.
 *
 * @module
 */
import { Q } from "../schema.ts";
import { storeState } from "../gone.ts";
import type { EventRow, FileAtRow, SessionRow } from "../rows.ts";
import { AmbiguousSession, modelPath, modelsLabel, resolveSession, shortRef } from "../sessions.ts";
import { describeSession } from "../memory/last.ts";
import { resumePlan } from "../resume.ts";
import { DejaError } from "../../core/errors.ts";
import { harnessId } from "../../core/registry.ts";
import { endingText, sessionEnding } from "../memory/ending.ts";
import { outcomeLabel, outcomeOf, type RunFacts, runFacts } from "../memory/outcome.ts";
import {
  addResultStatuses,
  commandStatuses,
  type RunStatus,
  type StatusTone,
  statusWords,
} from "../memory/run_status.ts";
import { htm, type Html, type Part } from "./html.ts";
import { lineDiff } from "./diff.ts";
import { cutsIn } from "../../core/text.ts";
import { eventAnchor } from "./list.ts";
import {
  badge,
  page,
  pageStart,
  projectHref,
  sessionHref,
  shortPath,
  VIEW_PAGE,
  type ViewCtx,
  when,
} from "./layout.ts";

type CommandFacts = RunFacts & { command: string };
type Touch = Pick<FileAtRow, "path" | "op" | "old" | "new" | "failed">;

/** Lines of text shown before the rest is folded away. */
const FOLD_LINES = 30;
/** Characters shown before the rest is folded away. */
const FOLD_CHARS = 3000;
/** Subagents nested at most this deep. */
const MAX_DEPTH = 4;

/**
 * The session page, or null when no session has that harness and id: the page of
 * {@link VIEW_PAGE} events that holds seq `at` (the first by default).
 */
export function sessionPage(
  ctx: ViewCtx,
  harness: string,
  id: string,
  at = 0,
): string | null {
  // A harness by any name `--harness` takes (trial 137 L2: `h=CLAUDE`, `h=claude-code` 404).
  harness = harnessId(harness) ?? harness;
  // An id prefix, as the CLI takes one (trial 67: `/session?h=claude&id=5fbf3543` was 404).
  let s = Q.sessionByKey.get(ctx.store, { harness, native_id: id });
  if (!s && id.trim()) {
    let several: AmbiguousSession | undefined;
    const find = (ref: string) => {
      try {
        return resolveSession(ctx.store, ref);
      } catch (e) {
        if (e instanceof AmbiguousSession) several ??= e;
        return undefined; // none, or several: listed below
      }
    };
    s = harness ? find(`${harness}:${id.trim()}`) : undefined;
    s ??= find(id.trim());
    if (s && harness && s.harness !== harness) return null;
    // Several sessions start so: they are listed, as `deja show` lists them (trial 69: 404).
    if (!s && several) return candidatesPage(ctx, several);
  }
  if (!s) return null;
  const from = pageStart(at);
  const last = Math.max(0, Q.maxSeq.get(ctx.store, { session: s.id })?.seq ?? 0);
  const range = { from: Math.min(from, pageStart(last)), to: 0 };
  range.to = range.from + VIEW_PAGE;
  const pager = pagerOf(ctx, s, range, last);
  const ref = `${s.harness}:${shortRef(ctx.store, s.harness, s.native_id)}`;
  const parent = s.parent
    ? Q.sessionByKey.get(ctx.store, { harness: s.harness, native_id: s.parent })
    : undefined;
  const models = modelsLabel(
    s,
    modelPath(Q.modelChanges.all(ctx.store, { session: s.id }).map((r) => r.model)),
  );
  const described = describeSession(ctx.store, s);
  const goneStores = [
    s.source,
    ...Q.copiesOf.all(ctx.store, { harness: s.harness, native_id: s.native_id })
      .map((r) => r.source).sort(),
  ].filter((p, i, all) => all.indexOf(p) === i && storeState(p) === "gone");
  const head = htm`
    <h1>${described ?? "(untitled)"}</h1>
    <div
      class="sub">${badge(s.harness)} ${
    s.project ? htm`<a href="${projectHref(ctx, s.project)}">${shortPath(ctx, s.project)}</a>` : "-"
  } · ${when(s.started)} → ${when(s.updated, s)} · ${s.events} ${
    s.events === 1 ? "event" : "events"
  }${models ? ` · ${models}` : ""}</div>
    <div class="sub">id ${s.native_id} · ${shortPath(ctx, s.source)}${
    parent
      ? htm`
        · subagent of <a href="${
        sessionHref(
          ctx,
          parent.harness,
          parent.native_id,
        )
      }">${parent.title || parent.native_id}</a>
      `
      : s.parent
      // A parent the index does not hold is named all the same, as `deja show` names it (trial
      // 95 F6: such subagents looked like sessions of their own).
      ? htm`
        · subagent of ${s.parent} (not indexed)
      `
      : ""
  }</div>${
    // Stores gone since: what they held is kept, as `deja show` says (trial 137 M3).
    goneStores.map((p) =>
      htm`
    <div class="sub">${
        p === s.source
          ? "its store is gone since"
          : htm`also read from ${shortPath(ctx, p)}, gone since`
      }: what only it held is kept in the index</div>`
    )}
    <div>${resumeCopy(ctx, ref)}${copy(`deja ctx ${ref}`)}</div>
  `;
  return page(ctx, {
    // The heading's words, not the bare id of a session its harness gave no title (trial 126 F7).
    title: described ?? s.native_id,
    nav: "",
    body: htm`${head}${pager}${transcript(ctx, s, s.native_id, 0, range)}${pager}${
      range.to > last ? ending(ctx, s) : ""
    }`,
  });
}

/** Seqs `from` up to `to` (not included): the events of one page. */
interface SeqRange {
  from: number;
  to: number;
}

/** The links to the pages before and after `range`; "" when the session fits on one page. */
function pagerOf(ctx: ViewCtx, s: SessionRow, range: SeqRange, last: number): Html | "" {
  if (range.from === 0 && range.to > last) return "";
  const link = (seq: number, label: string) =>
    htm`<a href="${sessionHref(ctx, s.harness, s.native_id)}${
      seq ? `&at=${seq}` : ""
    }">${label}</a>`;
  return htm`<div class="sub pager">events #${range.from} to #${
    Math.min(range.to, last + 1) - 1
  } of #0 to #${last} · ${range.from ? link(0, "first") : "first"} · ${
    range.from ? link(range.from - VIEW_PAGE, "← earlier") : "← earlier"
  } · ${range.to <= last ? link(range.to, "later →") : "later →"} · ${
    range.to <= last ? link(pageStart(last), "last") : "last"
  }</div>`;
}

/**
 * How the session ended, as `deja show` says it under the last event (lib/memory/ending.ts),
 * read from the events' metadata a row at a time.
 */
function ending(ctx: ViewCtx, s: SessionRow): Html | "" {
  const text = endingText(
    sessionEnding(ctx.store, s, Q.eventMetaOfSession.iterate(ctx.store, { session: s.id })),
  );
  return text ? htm`<div class="ending">${text}</div>` : "";
}

/**
 * The `deja resume` copy button when `deja resume` would reopen the session (lib/resume.ts
 * `resumePlan`, the command's own rule), else why not, as the command says it (trial 95 F10: a
 * button for aider sessions, which no command reopens).
 */
function resumeCopy(ctx: ViewCtx, ref: string): Html {
  try {
    const plan = resumePlan(ctx.store, ref, ctx.env);
    // The caveat `deja resume` prints goes with its button (trial 99 F6: a Gemini session of
    // no known directory had a plain button where the CLI says to run it from that directory).
    return htm`${copy(`deja resume ${ref}`)}${
      plan.note
        ? htm`<span class="copy ${plan.needsCwd ? "warn" : "mut"}">${
          plan.needsCwd ? "as printed it will not find the session: " : ""
        }${plan.note}</span>`
        : ""
    }`;
  } catch (e) {
    if (!(e instanceof DejaError)) throw e;
    // Exit 2 is a refusal, said; exit 1, a reference the CLI does not read (a harness it does
    // not know), no button either.
    return e.exitCode === 2
      ? htm`<span class="copy mut">not resumable: ${e.message}</span>`
      : htm``;
  }
}

function copy(command: string): Html {
  return htm`
    <span
      class="copy"><code>${command}</code><button type="button" data-copy="${command}">copy</button></span>
  `;
}

/**
 * A session's events in `range` (and its subagents, nested where they started; each shows its
 * first page, the rest on its own page).
 */
function transcript(
  ctx: ViewCtx,
  s: SessionRow,
  rootId: string,
  depth: number,
  range: SeqRange = { from: 0, to: VIEW_PAGE },
): Html {
  const st = ctx.store;
  const events = Q.eventsBetweenSeqs.all(st, { session: s.id, from: range.from - 1, to: range.to });
  const ids = new Set(events.map((e) => e.id));
  const commands = new Map<number, CommandFacts>();
  const ran = Q.commandsInOrder.all(st, { session: s.id }).filter((c) => ids.has(c.event_id));
  for (const c of ran) commands.set(c.event_id, { ...runFacts(c), command: c.command });
  // What `deja show` says of each call and result, by its rule (lib/memory/run_status.ts; trial
  // 112 F1: only shell commands were marked, a Read whose result was an error looked fine).
  const statuses = commandStatuses(ran);
  addResultStatuses(
    events.filter((e) => e.kind === "tool_call" && e.call_id),
    events.filter((e) => e.kind === "tool_result" && (e.call_id || e.data)),
    statuses,
  );
  const touches = new Map<number, Touch[]>();
  for (const f of Q.filesInOrder.iterate(st, { session: s.id })) {
    if (!ids.has(f.event_id)) continue;
    const list = touches.get(f.event_id) ?? [];
    list.push(f);
    touches.set(f.event_id, list);
  }
  // Every result of a call, each with its own anchor: a search hit in one opens the page there
  // (trial 95 F1: only the call had an id, and 23 of 71 hit links led to the top of the page).
  const results = new Map<string, EventRow[]>();
  for (const e of events) {
    if (e.kind === "tool_result" && e.call_id) {
      results.set(e.call_id, [...results.get(e.call_id) ?? [], e]);
    }
  }
  const calls = new Set(events.filter((e) => e.kind === "tool_call").map((e) => e.call_id));
  const children = depth < MAX_DEPTH
    ? Q.childrenOf.all(st, { harness: s.harness, parent: s.native_id })
    : [];
  const out: Part[] = [];
  let k = 0;
  const anchor = (seq: number) => eventAnchor(rootId, s.native_id, seq);
  let model: string | undefined;
  if (range.from > 0) {
    // Where an earlier page left off: the subagents it placed, the model it last named.
    const before = Q.pageBefore.get(st, { session: s.id, seq: range.from });
    const was = before?.time ?? -Infinity;
    while (k < children.length && (children[k].started ?? Infinity) <= was) k++;
    model = before?.model ?? undefined;
  }
  for (const e of events) {
    while (k < children.length && (children[k].started ?? Infinity) <= (e.time ?? -Infinity)) {
      out.push(subagent(ctx, children[k++], rootId, depth));
    }
    // Where the replies' model changes (the first one is the header's).
    if (e.model && e.model !== model) {
      if (model !== undefined) {
        out.push(htm`<div class="model-change">— model ${e.model} from here</div>`);
      }
      model = e.model;
    }
    if (e.kind === "tool_result" && e.call_id && calls.has(e.call_id)) continue; // shown with its call
    out.push(eventBlock(e, anchor(e.seq), {
      command: commands.get(e.id),
      status: statuses.get(e.id),
      touches: touches.get(e.id) ?? [],
      results: (e.call_id && e.kind === "tool_call" ? results.get(e.call_id) : undefined)
        ?.map((r) => ({ event: r, anchor: anchor(r.seq), status: statuses.get(r.id) })) ?? [],
    }));
  }
  const lastPage = !Q.eventsBetweenSeqs.get(st, { session: s.id, from: range.to - 1, to: END });
  if (lastPage) {
    while (k < children.length) {
      out.push(subagent(ctx, children[k++], rootId, depth));
    }
  } else if (depth > 0) {
    out.push(
      htm`<div class="sub">${s.events - events.length} more events: <a href="${
        sessionHref(ctx, s.harness, s.native_id)
      }">open alone</a></div>`,
    );
  }
  if (!events.length) out.push(htm`<div class="empty">This session has no events.</div>`);
  return htm`${out}`;
}

/** After every seq. */
const END = Number.MAX_SAFE_INTEGER;

function subagent(ctx: ViewCtx, c: SessionRow, rootId: string, depth: number): Html {
  const open = sessionHref(ctx, c.harness, c.native_id);
  const title = describeSession(ctx.store, c) ?? c.native_id;
  return htm`<details class="sub-agent" id="${c.native_id}"><summary>subagent · ${title} · ${c.events} events · <a href="${open}">open alone</a></summary>${
    transcript(ctx, c, rootId, depth + 1)
  }</details>`;
}

interface Extras {
  command?: CommandFacts;
  /** What `deja show` says of the event (lib/memory/run_status.ts), when it says something. */
  status?: RunStatus;
  touches: Touch[];
  /** The call's results, drawn inside its card, each with its anchor and status. */
  results: Array<{ event: EventRow; anchor: string; status?: RunStatus }>;
}

const LABEL: Record<string, string> = {
  user: "user",
  assistant: "assistant",
  summary: "compaction summary",
  notice: "harness notice",
};

function eventBlock(e: EventRow, anchor: string, x: Extras): Html {
  const head = (label: Part) =>
    htm`
      <div
        class="head">${label}<span>${when(e.time)}</span><a class="seq" href="#${
      encodeURIComponent(
        anchor,
      )
    }">#${e.seq}</a></div>
    `;
  if (e.kind === "user" || e.kind === "assistant" || e.kind === "summary" || e.kind === "notice") {
    const label = e.kind === "summary" || e.kind === "notice"
      ? htm`<span class="badge h3">${LABEL[e.kind]}</span>`
      : htm`<b>${LABEL[e.kind]}</b>`;
    return htm`<div class="ev ${e.kind}" id="${anchor}">${head(label)}${
      folded(e.text, "txt")
    }</div>`;
  }
  if (e.kind === "tool_result") {
    return htm`<div class="ev tool" id="${anchor}">${head(htm`<b>result</b> ${e.tool ?? ""}`)}${
      output(e.text, { status: x.status })
    }</div>`;
  }
  return htm`<div class="ev tool" id="${anchor}">${head(htm`<b>${e.tool ?? "tool"}</b>`)}${
    callBody(e, x)
  }${
    x.results.map((r) =>
      output(r.event.text, { seq: r.event.seq, anchor: r.anchor, status: r.status })
    )
  }</div>`;
}

function callBody(e: EventRow, x: Extras): Html {
  const parts: Part[] = [];
  if (x.command) {
    const facts = x.command;
    // A call the store says never ran is said so, as `deja show` says it.
    const outcome = x.status?.not_run ? "not_run" : outcomeOf(facts);
    parts.push(
      htm`<pre class="cmd">$ ${x.command.command}</pre>${
        mark(outcome, x.status?.not_run ? "not run" : outcomeLabel(facts))
      }`,
    );
  }
  // Any other tool's call: failed (or never run) when its result says so.
  const said = !x.command && x.status ? statusWords(x.status, e.kind) : null;
  for (const t of x.touches) {
    // Said by its path only when the call is not marked below (trial 126 F6: a failed edit read
    // "failed" three times, by its path, under its diff and on its output).
    const failed = t.failed && !x.command && !said
      ? htm` <span class="st st-failed">failed</span>`
      : "";
    if (t.op === "edit") {
      parts.push(
        htm`<div class="path">edit ${t.path}${failed}</div>${diff(t.old ?? "", t.new ?? "")}`,
      );
    } else if (t.op === "write") {
      parts.push(
        htm`<div class="path">wrote ${t.path}${failed}</div>${folded(t.new ?? "", "pre")}`,
      );
    } else parts.push(htm`<div class="path">read ${t.path}</div>`);
  }
  // A shell call with no run (one Crush refused: no command was derived) reads as its indexed
  // `$ command`, as `deja show` prints it, not as its raw arguments (trial 126 F5).
  if (!parts.length && e.text.startsWith("$ ")) parts.push(htm`<pre class="cmd">${e.text}</pre>`);
  if (!parts.length) {
    const args = pretty(e.data) ?? e.text;
    parts.push(folded(args, "pre"));
  }
  if (said) parts.push(mark(said.tone, said.words));
  return htm`${parts}`;
}

/** A run's status as the view marks it: `✓ exit 0`, `✗ failed`, `? exit unknown`, `not run`. */
function mark(tone: StatusTone, words: string): Html {
  const sign = tone === "ok" ? "✓ " : tone === "failed" ? "✗ " : tone === "unknown" ? "? " : "";
  return htm`<span class="st st-${tone}">${sign}${words}</span>`;
}

function pretty(data: string | null): string | null {
  if (!data) return null;
  try {
    const v = JSON.parse(data);
    return typeof v === "string" ? v : JSON.stringify(v, null, 2);
  } catch {
    return data;
  }
}

function diff(before: string, after: string): Html {
  const rows = lineDiff(before, after).map((l) => {
    const cls = l.op === "+" ? "a" : l.op === "-" ? "d" : "c";
    return htm`<div class="${cls}">${l.op === "…" ? `… ${l.text}` : `${l.op} ${l.text}`}</div>`;
  });
  return htm`<pre class="diff">${rows}</pre>`;
}

/**
 * A tool's output, folded when long; `anchor`: its id, a result drawn inside its call's card;
 * `status`: its run's, marked when `deja show` says it (a failed result).
 */
function output(
  text: string,
  o: { seq?: number; anchor?: string; status?: RunStatus } = {},
): Html {
  const said = o.status ? statusWords(o.status, "tool_result") : null;
  const st = said ? htm` · ${mark(said.tone, said.words)}` : "";
  // Empty, it still holds the anchor a link may name (and says it failed, when it did).
  if (!text.trim()) {
    return o.anchor
      ? htm`<span id="${o.anchor}">${said ? htm`${mark(said.tone, said.words)}` : ""}</span>`
      : said
      ? mark(said.tone, said.words)
      : htm``;
  }
  const lines = text.split("\n").length;
  const cut = cutNote(text);
  const label = `output · ${lines} ${lines === 1 ? "line" : "lines"}${cut ? ` ${cut}` : ""}${
    o.seq === undefined ? "" : ` · #${o.seq}`
  }`;
  const long = lines > 12 || text.length > 1200;
  const open = long ? "" : htm` open`;
  const id = o.anchor ? htm` class="out" id="${o.anchor}"` : "";
  return htm`<details${id}${open}><summary>${label}${st}</summary><pre>${text}</pre></details>`;
}

/** Text shown whole when short, else its head with the rest behind a fold. */
function folded(text: string, kind: "txt" | "pre"): Html {
  const lines = text.split("\n");
  let head = text;
  if (lines.length > FOLD_LINES) head = lines.slice(0, FOLD_LINES).join("\n");
  if (head.length > FOLD_CHARS) head = head.slice(0, FOLD_CHARS);
  const rest = text.slice(head.length);
  const body = (t: string) => kind === "pre" ? htm`<pre>${t}</pre>` : htm`<p class="txt">${t}</p>`;
  if (!rest) return body(text);
  const more = rest.split("\n").length;
  const cut = cutNote(text);
  return htm`${body(head)}<details><summary>${more} more ${more === 1 ? "line" : "lines"}${
    cut ? ` ${cut}` : ""
  }</summary>${body(rest)}</details>`;
}

/**
 * What the index cut from `text` (its `… [N characters cut] …` markers, core/text.ts), said
 * where a fold names its size: `(the index kept 16,376 of 3,390,003 characters)`;
 * "" when nothing was cut (trial 112 F6: a 30,001-line output read "output · 148 lines", the
 * lines kept, as if that were all).
 */
function cutNote(text: string): string {
  const { chars, marks } = cutsIn(text);
  if (!chars) return "";
  const n = (x: number) => x.toLocaleString("en");
  const kept = text.length - marks;
  return `(the index kept ${n(kept)} of ${n(kept + chars)} characters)`;
}

/** The sessions an id prefix several of them share names: each with its link. */
function candidatesPage(ctx: ViewCtx, e: AmbiguousSession): string {
  const rows = e.candidates.map((c) =>
    htm`<li><a href="${sessionHref(ctx, c.harness, c.id)}">${c.ref}</a> ${badge(c.harness)} ${
      c.title ?? "(untitled)"
    } <span class="mut">${c.project ?? "-"} · ${when(c.time)}</span></li>`
  );
  const more = e.total > e.candidates.length
    ? htm`<p class="sub">${e.more ? "at least " : ""}${e.total - e.candidates.length} more</p>`
    : "";
  return page(ctx, {
    title: `sessions starting ${e.ref}`,
    nav: "sessions",
    body: htm`<h1>${
      e.more ? "At least " : ""
    }${e.total} sessions start “${e.ref}”</h1><ul>${rows}</ul>${more}`,
  });
}
