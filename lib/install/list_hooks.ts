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
import {
  dejaSubcommand,
  hookByDeja,
  hookCommand,
  type HookOwnership,
  type HookReplaced,
  keptTimeout,
  putBackHooks,
  runsLauncher,
  ShapeError,
  timeoutEdited,
} from "./edits.ts";

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
 * appended after the user's entries. An entry the user wrote that runs the
 * same deja subcommand is kept and none added (returns `kept`), unless
 * `own.force` (edits.ts `setHooks`).
 *
 * @throws {ShapeError} when `hooks` is there but is not a list.
 */
export function setListHooks(
  o: Obj,
  specs: HookSpec[],
  launcher: string,
  own: HookOwnership = {},
): "kept" | void {
  const list = hookList(o, true)!;
  let keptAny = false;
  for (const spec of specs) {
    const want = entryOf(spec, launcher);
    const calls = list.flatMap((e, i) =>
      mine(e, spec.args[0]) && (e as Obj).event === spec.event ? [i] : []
    );
    const theirs = calls.filter((i) => !hookByDeja((list[i] as Obj).command, specs, launcher));
    if (theirs.length && !own.force) keptAny = true;
    const at = theirs.length && !own.force ? calls.filter((i) => !theirs.includes(i)) : calls;
    for (const i of theirs) {
      if (own.force) {
        own.replaced?.({ event: spec.event, sub: spec.args[0], index: i, entry: list[i] });
      }
    }
    if (!at.length) {
      if (!theirs.length) list.push(want);
    } else {
      list[at[0]] = keptTimeout(want, (list[at[0]] as Obj).timeout, own, {
        event: spec.event,
        sub: spec.args[0],
      });
      for (const i of at.slice(1).reverse()) list.splice(i, 1);
    }
  }
  return keptAny ? "kept" : undefined;
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

/** Every entry of the `[[hooks]]` list, whatever it runs. */
export function allListHooks(
  o: Obj,
): Array<{ event: string; matcher?: string; command: unknown; timeout: unknown }> {
  return (hookList(o, false) ?? []).flatMap((e) =>
    isObj(e)
      ? [{
        event: String(e.event ?? ""),
        matcher: typeof e.matcher === "string" ? e.matcher : undefined,
        command: e.command,
        timeout: e.timeout,
      }]
      : []
  );
}

/**
 * Removes every entry deja wrote for `specs` (edits.ts `hookByDeja`; one with a
 * timeout of the user's, `timeoutEdited`, only with `force`) and puts
 * back the user's entries `--force` replaced (`back`); a list left empty stays
 * (wire.ts prunes it when deja created it).
 * Returns how many went; the ones put back are added to `restored`.
 */
export function removeListHooks(
  o: Obj,
  specs: readonly (Pick<HookSpec, "args"> & Partial<Pick<HookSpec, "timeout">>)[],
  launcher?: string,
  back: HookReplaced[] = [],
  restored: HookReplaced[] = [],
  force = false,
): number {
  const list = hookList(o, false);
  if (!list) return 0;
  const ours = (e: unknown) =>
    isObj(e) &&
    ((hookByDeja(e.command, specs, launcher) && !timeoutEdited(e, specs)) ||
      (force && runsLauncher(e.command, launcher)));
  const kept = list.filter((e) => !ours(e));
  const n = list.length - kept.length;
  if (!n) return 0;
  const gone = new Set(
    list.filter(ours).map((e) => `${(e as Obj).event}\0${dejaSubcommand((e as Obj).command)}`),
  );
  restored.push(...putBackHooks(() => kept, back, gone));
  o.hooks = kept;
  return n;
}
