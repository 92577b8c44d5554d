/** `deja restore <path>`: the spans agents replaced in a file, and one of them back. */
import type { Args, CommandSpec } from "./common.ts";
import { colors, fmtTime, intOpt, isoTime, opt, printJson } from "./common.ts";
import { oneLine, tilde } from "../../core/text.ts";
import type { IO } from "../../core/runtime.ts";
import { DejaError } from "../../core/errors.ts";
import { shortRef } from "../sessions.ts";
import { listSpans, type RestoreSpan, writeSpan } from "../memory/restore.ts";
import {
  FILTER_OPTIONS,
  harnessOpt,
  hiddenFor,
  hiddenHint,
  JUNK_OPTION,
  withStore,
} from "./_memory.ts";

export const restoreCmd: CommandSpec = {
  refresh: true,
  usage:
    "restore <path> [--span N] [-o <file>] [--force] [--harness <id>] [--project <text>] [--junk] [--json]",
  maxPositionals: 1,
  options: {
    ...FILTER_OPTIONS,
    ...JUNK_OPTION,
    span: {
      type: "string",
      value: "<n>",
      description: "print span n (as listed; controls removed, -o writes it byte for byte)",
    },
    out: {
      type: "string",
      short: "o",
      value: "<file>",
      description: "write the span to this file (never over an existing file without --force)",
    },
    force: {
      type: "boolean",
      description: "let -o overwrite an existing file, even the one the span came from",
    },
    json: { type: "boolean", description: "print spans as JSON (docs/json-output.md)" },
  },
  run: (a, io) => Promise.resolve(runRestore(a, io)),
};

function spanJson(s: RestoreSpan, ref: string, withText: boolean) {
  return {
    n: s.n,
    op: s.op,
    restorable: s.restorable,
    path: s.path,
    lines: s.lines,
    bytes: s.bytes,
    redacted: s.redacted,
    cut: s.cut,
    time: isoTime(s.time),
    harness: s.harness,
    session: s.session,
    short_id: ref,
    ...(withText ? { text: s.text } : {}),
  };
}

function runRestore(a: Args, io: IO): number {
  const path = a.positionals[0];
  if (!path) throw new DejaError("which file? give its path", "deja restore <path>", 2);
  const harness = harnessOpt(a);
  const want = a.values.span === undefined ? undefined : intOpt(a, "span", 1);
  const out = opt(a, "out");
  return withStore(io, (store) => {
    const r = listSpans(store, path, {
      cwd: io.cwd,
      harness,
      project: opt(a, "project"),
      hidden: hiddenFor(store, a, io),
    });
    hiddenHint(io, r.hidden);
    const ref = (s: RestoreSpan) => shortRef(store, s.harness, s.session);
    if (!r.spans.length) {
      if (a.values.json) {
        printJson(io, { target: r.target, match: r.match, spans: [], hidden: r.hidden });
      } else io.err(`deja: no agent replaced text in ${tilde(r.target, io.env.home)}\n`);
      return 1;
    }
    if (want === undefined && out === undefined) {
      if (a.values.json) {
        printJson(io, {
          target: r.target,
          match: r.match,
          hidden: r.hidden,
          spans: r.spans.map((s) => spanJson(s, ref(s), false)),
        });
      } else {
        io.out(listing(r.match === "exact" ? r.target : path, r.match ?? "", r.spans, ref, io));
      }
      return 0;
    }
    if (want === undefined && r.spans.length > 1) {
      throw new DejaError(
        `${r.spans.length} spans: say which one to write`,
        `deja restore ${path} lists them; then --span N -o ${out}`,
      );
    }
    const n = want ?? 1;
    const span = r.spans[n - 1];
    if (!span) {
      throw new DejaError(
        `no span ${n}: ${r.spans[0]?.path ?? r.target} has ${r.spans.length} span${
          r.spans.length === 1 ? "" : "s"
        }`,
        `deja restore ${path} lists them`,
      );
    }
    if (span.redacted) {
      io.err(`deja: span ${n} passed through redaction: [redacted:…] stands where a secret was\n`);
    }
    if (!span.restorable && out === undefined) {
      io.err(
        `deja: span ${n} is what a write put in the file, not what it held before (unknown)\n`,
      );
    }
    if (out !== undefined) {
      const written = writeSpan(span, out, {
        cwd: io.cwd,
        force: Boolean(a.values.force),
        guard: [r.target],
      });
      if (a.values.json) printJson(io, { written, span: spanJson(span, ref(span), false) });
      else io.out(`wrote span ${n} (${span.lines} lines) to ${tilde(written, io.env.home)}\n`);
      return 0;
    }
    if (a.values.json) printJson(io, spanJson(span, ref(span), true));
    else io.out(span.text);
    return 0;
  });
}

function listing(
  target: string,
  match: string,
  spans: RestoreSpan[],
  ref: (s: RestoreSpan) => string,
  io: IO,
): string {
  const c = colors(io);
  const lines = [
    c.bold(tilde(target, io.env.home)) +
    c.dim(`  ${match} match, ${spans.length} span${spans.length === 1 ? "" : "s"}, newest first`),
  ];
  for (const s of spans) {
    const flags = [
      !s.restorable && "previous content unknown, not restorable",
      s.redacted && "redacted",
      s.cut && "cut",
    ].filter(Boolean).join(", ");
    const where = s.path === target && match === "exact" ? "" : `  ${tilde(s.path, io.env.home)}`;
    lines.push(
      `${String(s.n).padStart(3)}  ${fmtTime(s.time)}  ${s.op.padEnd(5)}  ${
        String(s.lines).padStart(4)
      } line${s.lines === 1 ? " " : "s"}  ${c.cyan(ref(s))} ${s.harness}${where}${
        flags ? c.yellow(`  (${flags})`) : ""
      }`,
    );
    const first = s.text.split("\n").find((l) => l.trim()) ?? "";
    lines.push(c.dim(`       │ ${oneLine(first, 90)}`));
  }
  lines.push(c.dim(`deja restore <path> --span N prints one; add -o <file> to write it`));
  return lines.join("\n") + "\n";
}
