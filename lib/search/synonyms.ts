/**
 * The reviewed table of developer synonyms and abbreviations the word-forms
 * tier uses (`auth` finds `authentication`, `k8s` finds `kubernetes`).
 *
 * Rules for a group: every word in it can stand for every other in a coding
 * conversation, with no common second meaning (`ts` is left out: TypeScript or
 * timestamp; `pr` and `ci` have no one-word expansion). Words are index
 * tokens: lower case, letters and digits only.
 *
 * @module
 */

/** Groups of words that mean the same thing to a developer. */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ["auth", "authentication", "authn", "authenticate", "authenticated"],
  ["auth", "authorization", "authz", "authorize", "authorized"],
  ["db", "database", "databases", "dbs"],
  ["k8s", "kubernetes", "kube"],
  ["cfg", "config", "configuration", "conf", "configs"],
  ["env", "environment", "envs", "environments"],
  ["repo", "repository", "repos", "repositories"],
  ["perm", "perms", "permission", "permissions"],
  ["cert", "certs", "certificate", "certificates"],
  ["dir", "dirs", "directory", "directories", "folder", "folders"],
  ["msg", "msgs", "message", "messages"],
  ["dep", "deps", "dependency", "dependencies"],
  ["prod", "production"],
  ["dev", "development"],
  ["param", "params", "parameter", "parameters"],
  ["arg", "args", "argument", "arguments"],
  ["doc", "docs", "documentation"],
  ["err", "error", "errors", "errs"],
  ["js", "javascript"],
  ["py", "python"],
  ["pkg", "pkgs", "package", "packages"],
  ["impl", "implementation"],
  ["init", "initialize", "initialise", "initialization", "initialisation"],
  ["info", "information"],
  ["spec", "specs", "specification"],
  ["req", "request", "requests"],
  ["res", "resp", "response", "responses"],
  ["tmp", "temp", "temporary"],
  ["async", "asynchronous"],
  ["fn", "func", "function", "functions"],
  ["var", "vars", "variable", "variables"],
  ["pw", "pwd", "passwd", "password", "passwords"],
  ["mem", "memory"],
  ["src", "source"],
  ["lib", "libs", "library", "libraries"],
  ["app", "apps", "application", "applications"],
  ["img", "imgs", "image", "images"],
  ["btn", "button"],
  ["gh", "github"],
  ["ws", "websocket", "websockets"],
  ["regex", "regexp", "regexes"],
  ["i18n", "internationalization", "internationalisation"],
  ["l10n", "localization", "localisation"],
  ["a11y", "accessibility"],
  ["perf", "performance"],
  ["util", "utils", "utility", "utilities"],
  ["stats", "statistics"],
  ["tz", "timezone", "timezones"],
  ["login", "signin", "logon"],
  ["logout", "signout", "logoff"],
  ["creds", "credentials", "credential"],
  ["cmd", "cmds", "command", "commands"],
  ["addr", "address"],
  ["admin", "administrator"],
  ["attr", "attrs", "attribute", "attributes"],
  ["ctx", "context"],
  ["nav", "navigation"],
  ["txn", "transaction", "transactions"],
  ["deploy", "deployment", "deployments", "deploys"],
];

/**
 * A lookup from a word to the other words of every group of `groups` it
 * belongs to. The index (word -> its groups) is built on the first call: most
 * searches end at a tier that never asks, and building it costs every cold
 * query start-up time (issue 18); a word's set is made when it is asked (a set
 * per word of 1,100 groups built up front was ~5 ms of a cold relevance query,
 * issue 15).
 */
export function groupLookup(
  groups: () => readonly (readonly string[])[],
): (word: string) => ReadonlySet<string> | undefined {
  let list: readonly (readonly string[])[] | undefined;
  let index: Map<string, number[]> | undefined;
  const sets = new Map<string, Set<string>>();
  return (word) => {
    if (!index) {
      list = groups();
      index = new Map();
      for (let i = 0; i < list.length; i++) {
        for (const w of list[i]) {
          const at = index.get(w);
          if (at) at.push(i);
          else index.set(w, [i]);
        }
      }
    }
    let s = sets.get(word);
    if (!s) {
      const at = index.get(word);
      if (!at) return undefined;
      sets.set(word, s = new Set());
      for (const i of at) for (const x of list![i]) if (x !== word) s.add(x);
    }
    return s;
  };
}

const byWord = groupLookup(() => SYNONYM_GROUPS);

/** The other words of every group `word` belongs to (empty when none). */
export function synonymsOf(word: string): string[] {
  return [...(byWord(word) ?? [])];
}
