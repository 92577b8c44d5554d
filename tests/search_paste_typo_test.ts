/**
 * Found by a fresh-user trial on a real Crush store (a k3s session titled "Forgejo crashing in
 * k3s cluster", whose events say `crash`/`crashes` and hold a pasted kubectl error):
 * - a misspelt word beside a word the history holds found nothing (`forgejo crashng`): the
 *   correction `crashing` was never widened to its forms, and when only a title spells it the
 *   events were never searched for its forms at all;
 * - the same kubectl error with another pod hash found nothing (the quoted pod name was
 *   required as a phrase), and `deja fix` said "never seen" of an error pasted in a prompt;
 * - the session's exact title as the query was narrated "no exact match; word forms".
 */
import { assert, assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { narration } from "../lib/cli/search_narration.ts";
import { findFixes } from "../lib/memory/fix.ts";
import { type MemSession, type MemStore, withMemIndex } from "./_search_fixture.ts";

const PASTED = 'Error from server (BadRequest): previous terminated container "forgejo" in pod ' +
  '"forgejo-5f4d46f74-hwbtn" not found';

const K3S: MemSession = {
  id: "s-k3s",
  title: "Forgejo crashing in k3s cluster",
  events: [
    ["user", "Forgejo keeps going down in my k3s cluster, use kubectl to find out why"],
    ["user", `I tried:\n❯ kubectl logs -n forgejo forgejo-5f4d46f74-hwbtn --previous\n${PASTED}`],
    ["assistant", "The forgejo pod restarts after each crash; the liveness probe kills it."],
    ["assistant", "It crashes because the probe timeout is too short for the forgejo migrations."],
  ],
};
const BACKEND: MemSession = {
  id: "s-backend",
  events: [
    ["user", "the backend is crashing with a 502 after the deploy"],
    ["assistant", "Redeployed the backend service; the 502 is gone."],
  ],
};
const NOISE: MemSession = {
  id: "s-noise",
  events: [
    ["user", "add the database migrations for the invoices table"],
    ["assistant", "Wrote the migration and ran it."],
  ],
};

const withHistory = (list: MemSession[], fn: (s: MemStore) => void) => withMemIndex(list, fn);

Deno.test("a misspelt word beside a held word matches through the correction's word forms", () =>
  withHistory([K3S, BACKEND, NOISE], (s) => {
    for (const q of ["forgejo crashng", "forgejo crashig", "kubectl crashng"]) {
      const r = search(s, q);
      assertEquals(r.results[0]?.id, "s-k3s", `${q}: ${r.tier}`);
      assertEquals([r.tier, r.nothingMatched], ["close", false], q);
    }
    // The correction alone still finds the session that spells it.
    assert(search(s, "crashng").results.some((r) => r.id === "s-backend"));
  }));

Deno.test("a misspelt word only a title spells is corrected to the forms the events hold", () =>
  withHistory([K3S, NOISE], (s) => {
    const r = search(s, "forgejo crashng");
    assertEquals(r.results.map((x) => x.id), ["s-k3s"], r.tier);
    assert(r.changes.some((c) => c.from === "crashng" && c.to.includes("crashes")));
  }));

Deno.test("a pasted error with another pod hash matches by its signature", () =>
  withHistory([K3S, BACKEND, NOISE], (s) => {
    const other = PASTED.replace("forgejo-5f4d46f74-hwbtn", "forgejo-7c9b8d6e4-x2kqp");
    for (const q of [PASTED, other, other.replaceAll('"', "")]) {
      const r = search(s, q);
      assertEquals(r.results[0]?.id, "s-k3s", `${q}: ${r.tier}`);
      assertEquals(r.nothingMatched, false, q);
    }
  }));

Deno.test("fix names the sessions an error was pasted in, not 'never seen'", () =>
  withHistory([K3S, BACKEND, NOISE], (s) => {
    const other = PASTED.replace("forgejo-5f4d46f74-hwbtn", "forgejo-7c9b8d6e4-x2kqp");
    for (const q of [PASTED, other]) {
      const r = findFixes(s, q, { mentions: true });
      assertEquals(r.status, "unseen", q);
      assertEquals(r.mentioned?.map((m) => m.session), ["s-k3s"], q);
      assert(!r.message.includes("never seen"), r.message);
    }
    // A hook does not pay for the extra pass.
    assertEquals(findFixes(s, PASTED).mentioned ?? [], []);
    assert(
      findFixes(s, "Error: Cannot find module 'left-pad'", { mentions: true }).message
        .startsWith("that error was never seen"),
    );
  }));

Deno.test("a query equal to a session's title is narrated as a title match", () =>
  withHistory([K3S, BACKEND, NOISE], (s) => {
    const r = search(s, "Forgejo crashing in k3s cluster");
    assertEquals(r.results[0]?.id, "s-k3s");
    assertEquals(r.results[0]?.titleMatch, true);
    const line = narration(r);
    assert(line.startsWith("matched the title"), line);
    assert(!line.includes("no exact match"), line);
    // A widened match whose first result is not a title match still says so.
    const plain = search(s, "backend crashes");
    assertEquals(plain.results[0]?.titleMatch, false);
    assert(narration(plain).startsWith("no exact match"), narration(plain));
  }));
