import { assert, assertEquals } from "../../tests/_assert.ts";
import { CHANGE_LINE_MAX, changedText, editChange, editsBetween } from "./fix_edits.ts";
import type { FileAtRow } from "../rows.ts";

const row = (seq: number, o: Partial<FileAtRow>): FileAtRow => ({
  id: seq,
  event_id: seq,
  session_id: 1,
  call_id: `c${seq}`,
  path: "/w/k8s/deploy.yaml",
  op: "edit",
  old: null,
  new: null,
  failed: 0,
  time: null,
  seq,
  ...o,
});

Deno.test("editsBetween takes the changes that did not fail between two seqs, the same once", () => {
  const rows = [
    row(1, { old: "v1beta1", new: "v1" }),
    row(3, { op: "read" }),
    row(4, { old: "x: 1", new: "x: 2", failed: 1 }),
    row(5, { old: "replicas: 1", new: "replicas: 2" }),
    row(6, { old: "replicas: 1", new: "replicas: 2" }),
    row(7, { op: "write", path: "/w/k8s/new.yaml", new: "kind: Service" }),
    row(9, { old: "a", new: "b" }),
  ];
  assertEquals(editsBetween(rows, 2, 9), [
    { path: "/w/k8s/deploy.yaml", op: "edit", old: "replicas: 1", new: "replicas: 2" },
    { path: "/w/k8s/new.yaml", op: "write", old: null, new: null },
  ]);
});

Deno.test("editChange says a change in a few words, or nothing for a write of unknown text", () => {
  const e = { path: "/w/x", op: "edit" as const };
  assertEquals(
    editChange({ ...e, old: "apps/v1beta1", new: "apps/v1" }, 60),
    "apps/v1beta1 → apps/v1",
  );
  assertEquals(editChange({ ...e, old: "", new: "--force" }, 60), "added --force");
  assertEquals(editChange({ ...e, old: "debug=1", new: "" }, 60), "removed debug=1");
  assertEquals(editChange({ ...e, op: "write", old: null, new: null }, 60), "");
  assertEquals(editChange({ ...e, old: "x".repeat(100), new: "y" }, 10), "xxxxxxxxx… → y");
});

Deno.test("changedText says a short changed line whole, a long one around its change", () => {
  // Trial 107 F6: `y = 1` -> `y = 2` was told `1 → 2`.
  assertEquals(
    changedText("def f(n):\n    y = 1\n    return y\n", "def f(n):\n    y = 2\n    return y\n"),
    [
      "y = 1",
      "y = 2",
    ],
  );
  assertEquals(
    changedText(
      "apiVersion: apps/v1beta1\nkind: Deployment",
      "apiVersion: apps/v1\nkind: Deployment",
    ),
    ["apiVersion: apps/v1beta1", "apiVersion: apps/v1"],
  );
  // Lines added: the old side empty (`added …`).
  assertEquals(changedText("a\nc", "a\nb = 1\nc"), ["", "b = 1"]);
  // A long line: the changed words with the words around them, cut marked, within the width.
  const pre = "const settings = { retries: 3, timeout: ";
  const post = ", verbose: false, colour: true, mode: 'strict', cache: './tmp/cache' };";
  const [o, n] = changedText(`${pre}1000${post}`, `${pre}5000${post}`);
  assert(o.includes("timeout: 1000") && n.includes("timeout: 5000"), `${o} | ${n}`);
  assert(o.startsWith("… ") && o.endsWith(" …"), o);
  assert(o.length <= CHANGE_LINE_MAX && n.length <= CHANGE_LINE_MAX, o);
  assertEquals(o.replace("1000", "5000"), n);
});
