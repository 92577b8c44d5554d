/** `deja stats`: what the index holds, and the secrets it redacted. */
import type { CommandSpec } from "./common.ts";
import { colors, fmtTime, isoTime, printJson } from "./common.ts";
import { tilde } from "../../core/text.ts";
import { indexPath, Store } from "../store.ts";
import { indexStats } from "../stats.ts";

export const statsCmd: CommandSpec = {
  usage: "stats [--json]",
  maxPositionals: 0,
  options: { json: { type: "boolean", description: "print as JSON (docs/json-output.md)" } },
  run(a, io) {
    const path = indexPath(io.env);
    const store = Store.open(path);
    let st;
    try {
      st = indexStats(store, path, io.env);
    } finally {
      store.close();
    }
    if (a.values.json) {
      printJson(io, {
        ...st,
        exclude_patterns: st.excludePatterns,
        excludePatterns: undefined,
        harnesses: st.harnesses.map((h) => ({
          ...h,
          first: isoTime(h.first),
          last: isoTime(h.last),
        })),
      });
      return Promise.resolve(0);
    }
    const c = colors(io);
    const mb = (st.bytes / (1 << 20)).toFixed(1);
    const out = [
      `${c.bold("index")}      ${tilde(st.index, io.env.home)}  ${mb} MiB, schema ${st.schema}`,
      `${
        c.bold("totals")
      }     ${st.sessions} sessions, ${st.events} events, ${st.sources} stores, ${st.words} words`,
    ];
    for (const h of st.harnesses) {
      out.push(
        `  ${h.harness.padEnd(10)} ${String(h.sessions).padStart(6)} sessions ${
          String(h.events).padStart(8)
        } events  ${fmtTime(h.first)} .. ${fmtTime(h.last)}`,
      );
    }
    if (st.projects.length) out.push(c.bold("projects"));
    for (const p of st.projects) {
      out.push(
        `  ${String(p.sessions).padStart(6)}  ${tilde(p.project, io.env.home)}`,
      );
    }
    const kinds = Object.entries(st.redacted).sort((x, y) => y[1] - x[1]);
    out.push(
      `${c.bold("redacted")}   ${
        kinds.length ? kinds.map(([k, n]) => `${n} ${k}`).join(", ") : "nothing"
      }`,
    );
    const stores = new Set(st.redactions.map((r) => r.source)).size;
    if (stores) {
      out.push(c.dim(`           in ${stores} store${stores === 1 ? "" : "s"}; --json lists them`));
    }
    out.push(
      `${
        c.bold("hidden")
      }     ${st.throwaway} throwaway, ${st.excluded} excluded (${st.excludePatterns} pattern${
        st.excludePatterns === 1 ? "" : "s"
      }), ${st.forgotten} forgotten`,
    );
    io.out(out.join("\n") + "\n");
    return Promise.resolve(0);
  },
};
