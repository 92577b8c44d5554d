/**
 * A fix's command adapted to the pasted error's own name (lib/memory/fix.ts): the
 * package a module comes from (`import yaml` from `pyyaml`), what needs no install
 * (Node's and Python's own modules), and the name put in the place of the one the
 * earlier error quoted, with its version pin.
 *
 * @module
 */
import type { Quoted } from "./signature.ts";

/** A command adapted to another name: what it became, and the names swapped. */
export interface Adapted {
  command: string;
  from: string;
  to: string;
}

/** A name a command can take as it is (no quoting needed). */
const PLAIN_NAME = /^[\w@.+:/-]+$/;

/** A Python package installer in a command (`pip install`, `uv add`, `poetry add`, `conda install`). */
const PY_INSTALL = /(?:^|[\s;&|(])(?:pip3?|pipx|uv|poetry|conda|mamba)\s/;

/**
 * Python modules whose package has another name (`import yaml` comes from `pyyaml`), for a
 * command adapted to another module ({@link adapt}; trial 15 was offered `pip install yaml` and
 * `pip install sklearn`). The packages' names as PyPI lists them.
 */
const PY_PACKAGES: Readonly<Record<string, string>> = {
  yaml: "pyyaml",
  sklearn: "scikit-learn",
  skimage: "scikit-image",
  cv2: "opencv-python",
  PIL: "pillow",
  bs4: "beautifulsoup4",
  dateutil: "python-dateutil",
  dotenv: "python-dotenv",
  jwt: "pyjwt",
  jose: "python-jose",
  multipart: "python-multipart",
  serial: "pyserial",
  usb: "pyusb",
  Crypto: "pycryptodome",
  attr: "attrs",
  MySQLdb: "mysqlclient",
  fitz: "pymupdf",
  docx: "python-docx",
  pptx: "python-pptx",
  gi: "pygobject",
  zmq: "pyzmq",
  OpenSSL: "pyopenssl",
  nacl: "pynacl",
  git: "gitpython",
  magic: "python-magic",
};

/** Extras and a version pinned after a package's name: `[s3]`, `@4`, `@^2.1`, `==1.2`, `>=2`. */
const PIN = String.raw`(?:\[[\w,.-]*\])?(?:@[\w.^~<>=*-]+|[=<>!~]=?[\w.*]+)?`;

/** Node's own modules (`fs`, `node:fs`): nothing to install. */
const NODE_BUILTINS = new Set(
  ("assert buffer child_process cluster crypto dgram dns events fs http http2 https net os " +
    "path perf_hooks process querystring readline stream string_decoder timers tls tty url " +
    "util v8 vm worker_threads zlib").split(" "),
);

/** Python's own modules a `No module named` names when a build lacks them: nothing to pip. */
const PY_STDLIB = new Set(["distutils", "tkinter", "ctypes", "sqlite3", "ssl", "lzma", "bz2"]);

/**
 * The package to install for module `name`, or null when there is none to name: a package's
 * module (`lodash/fp`, `@babel/core/lib/config`) is its package, a Go import path itself; a Python submodule
 * (`sklearn.ensemble`) its package when the table knows it (`app.models` may be the
 * project's own); Node's and Python's own modules, and private ones (`_ctypes`), none.
 */
function packageOf(name: string, py: boolean): string | null {
  if (name.startsWith("node:") || NODE_BUILTINS.has(name)) return null;
  if (py) {
    const top = name.split(".")[0];
    if (top.startsWith("_") || PY_STDLIB.has(top)) return null;
    if (top !== name) return PY_PACKAGES[top] ?? null;
    return PY_PACKAGES[name] ?? name;
  }
  const parts = name.split("/");
  // A Go import path starts with a host (`github.com/gorilla/mux`): `go get` takes it whole.
  if (parts.length > 1 && /^[\w-]+(?:\.[\w-]+)+$/.test(parts[0])) return name;
  return name.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * `command` for the pasted error's name: when the error it followed quoted one bare name
 * (`express`) the command names as a word, and the pasted error quotes one other bare name
 * (`left-pad`), that name in its place (`FixCandidate.adapted` in fix.ts). The other name's
 * version pin goes with it (`chalk@4` -> `ora`), and so does a `cd` into the other project
 * first; a Python installer gets the package of a module that has another name (`sklearn` ->
 * `scikit-learn`, and `opencv-python` read as the package of `cv2`).
 */
export function adapt(
  command: string,
  theirs: readonly Quoted[],
  mine: readonly Quoted[],
): Adapted | undefined {
  if (theirs.length !== 1 || mine.length !== 1 || theirs[0].path || mine[0].path) return undefined;
  const [from, to] = [theirs[0].raw, mine[0].raw];
  if (from === to || !PLAIN_NAME.test(from) || !PLAIN_NAME.test(to)) return undefined;
  const py = PY_INSTALL.test(command);
  const named = packageOf(to, py);
  const was = packageOf(from, py);
  if (named === null || was === null) return undefined;
  for (const old of [...new Set([was, from])]) {
    const esc = old.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    // The name last of its command (`cargo add regex --features derive` carries flags that
    // belong to regex, trial 17).
    const word = new RegExp(
      `(?<![\\w@./-])${esc}${PIN}(?![\\w/-])(?=\\s*(?:$|&&|\\|\\||;|\\|))`,
      "g",
    );
    if (!word.test(command)) continue;
    const here = command.replace(word, named).replace(/^\s*cd\s+\S+\s*&&\s*/, "");
    return { command: here, from, to };
  }
  return undefined;
}
