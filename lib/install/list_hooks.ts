/**
 * Hooks kept as one top-level list of `{event, matcher?, command, timeout}`
 * entries rather than a map by event: Kimi Code's `[[hooks]]` tables in
 * `config.toml` (read from MoonshotAI/kimi-code, agent-core-v2
 * `features/externalHooks/configSection.ts`: a strict schema of exactly those
 * four keys, so deja adds no marker key; its entries are found by their
 * command, as in edits.ts).
 *
 * @module
 */
import type { HookSpec } from "./facts.ts";
import { dejaSubcommand, hookCommand, ShapeError } from "./edits.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function hookList(o: Obj, create: boolean): unknown[] | undefined {
  const v = o.hooks;
  if (v === undefined) return create ? (o.hooks = []) as unknown[] : undefined;
  if (!Array.isArray(v)) {
    if (create) throw new ShapeError("hooks is not a list of [[hooks]] tables");
    return undefined;
  }
  return v;
}

/** The entry for `spec`: matcher only when the spec has one. */
function entryOf(spec: HookSpec, launcher: string): Obj {
  return {
    event: spec.event,
    ...(spec.matcher ? { matcher: spec.matcher } : {}),
    command: hookCommand(launcher, spec.args),
    timeout: spec.timeout,
  };
}

const mine = (e: unknown, sub?: string): boolean =>
  isObj(e) && dejaSubcommand(e.command) !== undefined &&
  (sub === undefined || dejaSubcommand(e.command) === sub);

/**
 * Adds or updates deja's entry for each spec (one per event and subcommand):
 * an existing one is updated where it stands, duplicates go, a missing one is
 * appended after the user's entries.
 *
 * @throws {ShapeError} when `hooks` is there but is not a list.
 */
export function setListHooks(o: Obj, specs: HookSpec[], launcher: string): void {
  const list = hookList(o, true)!;
  for (const spec of specs) {
    const want = entryOf(spec, launcher);
    const at = list.flatMap((e, i) =>
      mine(e, spec.args[0]) && (e as Obj).event === spec.event ? [i] : []
    );
    if (!at.length) list.push(want);
    else {
      list[at[0]] = want;
      for (const i of at.slice(1).reverse()) list.splice(i, 1);
    }
  }
}

/** deja's entries for `event`, with their matcher. */
export function findListHooks(
  o: Obj,
  event: string,
): Array<{ matcher?: string; command: string; sub: string }> {
  return (hookList(o, false) ?? []).flatMap((e) => {
    if (!mine(e) || (e as Obj).event !== event) return [];
    const x = e as Obj;
    const matcher = typeof x.matcher === "string" ? x.matcher : undefined;
    return [{ matcher, command: x.command as string, sub: dejaSubcommand(x.command)! }];
  });
}

/** Removes every deja entry; a list left empty goes too. Returns how many went. */
export function removeListHooks(o: Obj): number {
  const list = hookList(o, false);
  if (!list) return 0;
  const kept = list.filter((e) => !mine(e));
  const n = list.length - kept.length;
  if (!n) return 0;
  if (kept.length) o.hooks = kept;
  else delete o.hooks;
  return n;
}
