/**
 * The blind recall questions (bench/recall_blind.ts) keep their promise: at
 * most one content word shared with the target session, checked in code.
 */
import { assert, assertEquals } from "./_assert.ts";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { generateHistory } from "../bench/gen_recall.ts";
import { checkBlind, makeBlind } from "../bench/recall_blind.ts";
import { BLIND2 } from "../bench/recall_blind2_tables.ts";
import { tempDir } from "./_tmp.ts";

Deno.test("blind questions share at most one word with their session when made from the bench's history", () => {
  const dir = tempDir("deja-blind-");
  try {
    const h = generateHistory(join(dir, "claude"), { targets: 120, distractors: 40, seed: 11 });
    const qs = makeBlind(h, 60, 30, 12);
    assertEquals(qs.filter((q) => q.kind === "blind").length, 60);
    assertEquals(qs.filter((q) => q.kind === "blindneg").length, 30);
    assert(qs.filter((q) => q.kind === "blindneg").every((q) => q.relevant.length === 0));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("the second blind set's questions share at most one word with their session too", () => {
  const dir = tempDir("deja-blind-");
  try {
    const h = generateHistory(join(dir, "claude"), { targets: 120, distractors: 40, seed: 11 });
    const qs = makeBlind(h, 60, 30, 14, BLIND2);
    assertEquals(qs.filter((q) => q.kind === "blind2").length, 60);
    assertEquals(qs.filter((q) => q.kind === "blind2neg").length, 30);
    assert(qs.filter((q) => q.kind === "blind2neg").every((q) => q.relevant.length === 0));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("blind question check throws when a question shares two words with its session", () => {
  const dir = tempDir("deja-blind-");
  try {
    const h = generateHistory(join(dir, "claude"), { targets: 5, distractors: 0, seed: 11 });
    const c = h.cases[0];
    // The component's noun and the symptom's word, each a porter form of what the session says.
    const leaky = `why was the ${c.component.name} ${c.symptom.text}`;
    let err = "";
    try {
      checkBlind(h, [{ kind: "blind", query: leaky, relevant: [c.session] }], h.cases);
    } catch (e) {
      err = String(e);
    }
    assert(err.includes("share more than one content word"), err || "no error");
    checkBlind(h, [{ kind: "blind", query: "the basket", relevant: [c.session] }], h.cases);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
