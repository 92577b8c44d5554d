/**
 * Path templates as registry.json writes them: `${VAR}`, `${VAR:-default}`
 * (nested: `${A:-${B:-~/.config}/x}`), and a leading `~` for the home
 * directory. The same syntax the store paths use (docs/registry/README.md).
 *
 * @module
 */
import type { Env } from "../../core/model.ts";
import { expandHome } from "../../core/paths.ts";

/** Thrown for a template that is not well formed (an unclosed `${`). */
export class TemplateError extends Error {}

/**
 * Expands `${VAR}` and `${VAR:-default}` in `tpl` with `env` (an unset or
 * empty variable takes its default; one without a default expands to '').
 *
 * @throws {TemplateError} on an unclosed `${`.
 */
export function expandVars(env: Env, tpl: string): string {
  let out = "";
  let i = 0;
  while (i < tpl.length) {
    if (tpl.startsWith("${", i)) {
      const [value, next] = expandOne(env, tpl, i);
      out += value;
      i = next;
    } else {
      out += tpl[i++];
    }
  }
  return out;
}

/** Expands the `${...}` starting at `at`; returns its value and the index after it. */
function expandOne(env: Env, tpl: string, at: number): [string, number] {
  let depth = 0;
  let end = -1;
  for (let j = at; j < tpl.length; j++) {
    if (tpl.startsWith("${", j)) {
      depth++;
      j++;
    } else if (tpl[j] === "}") {
      depth--;
      if (depth === 0) {
        end = j;
        break;
      }
    }
  }
  if (end < 0) throw new TemplateError(`unclosed \${ in '${tpl}'`);
  const body = tpl.slice(at + 2, end);
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/.exec(body);
  if (!m) throw new TemplateError(`bad variable '\${${body}}' in '${tpl}'`);
  const v = env.get(m[1]);
  if (v !== undefined) return [v, end + 1];
  return [m[2] === undefined ? "" : expandVars(env, m[2]), end + 1];
}

/**
 * Expands a path template to an absolute path: variables first, then a
 * leading `~` (a variable's value may itself start with `~`).
 *
 * @throws {TemplateError} on a malformed template.
 */
export function expandPath(env: Env, tpl: string): string {
  return expandHome(env, expandVars(env, tpl));
}

/** The variable names a template mentions, in order (for documentation and tests). */
export function templateVars(tpl: string): string[] {
  return [...tpl.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}
