/**
 * `deno run -A tests/realdata_home.ts <dir>`: a home to try deja in by hand on the real
 * stores of ../shared/realdata (the six core harnesses, laid out by tests/_realdata.ts), for
 * fresh-user trials. Writes `<dir>/env.sh`; `source <dir>/env.sh`, then `deja index`. Every
 * location deja reads or writes points under `<dir>`; the real stores are copied, never
 * touched.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { realdataLayout, realPresent } from "./_realdata.ts";

const dir = Deno.args[0];
if (!dir) {
  console.error("usage: deno run -A tests/realdata_home.ts <dir>");
  Deno.exit(2);
}
if (!realPresent) {
  console.error("no ../shared/realdata beside the checkout");
  Deno.exit(1);
}
const root = resolve(dir);
const home = join(root, "home");
mkdirSync(home, { recursive: true });
const vars: Record<string, string> = {
  ...realdataLayout(join(root, "stores")),
  HOME: home,
  XDG_CONFIG_HOME: join(home, ".config"),
  XDG_DATA_HOME: join(home, ".local", "share"),
  XDG_CACHE_HOME: join(home, ".cache"),
  XDG_STATE_HOME: join(home, ".local", "state"),
  DEJA_HOME: join(root, "deja"),
};
const lines = Object.entries(vars).map(([k, v]) => `export ${k}='${v}'`);
writeFileSync(join(root, "env.sh"), lines.join("\n") + "\n");
console.log(`wrote ${join(root, "env.sh")}: source it, then run deja`);
