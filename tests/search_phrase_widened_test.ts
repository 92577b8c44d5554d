/**
 * A quoted phrase with a typo or another word form in it is read with its words spelt as the
 * history spells them, or in their other forms, and still held contiguously (trial 118 F3:
 * `"kubernets yaml"`, `"Forgejo keps going down"`, `"kubernetes yamls"` found nothing).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { withMemIndex } from "./_search_fixture.ts";

const SESSIONS = [
  { id: "s-yaml", events: [["user", "Please help fix my kubernetes yaml files, flux fails"]] },
  { id: "s-forge", events: [["user", "Forgejo keeps going down in my cluster"]] },
  {
    id: "s-apart",
    events: [["assistant", "the yaml for forgejo is fine; kubernetes restarts it, keeps it"]],
  },
  { id: "s-vector", events: [["tool_result", "error: vector dimension mismatch in collection"]] },
] as const;

Deno.test("a quoted phrase with a typo is matched spelt right, still contiguous", () =>
  withMemIndex(SESSIONS.map((s) => ({ ...s, events: s.events.map((e) => [...e]) })), (s) => {
    const typo = search(s, '"kubernets yaml"');
    assertEquals(typo.results.map((r) => r.id), ["s-yaml"]);
    assertEquals(typo.tier, "close");
    assertEquals(typo.changes, [{ from: "kubernets yaml", to: ["kubernetes yaml"] }]);
    const keps = search(s, '"Forgejo keps going down"');
    assertEquals(keps.results.map((r) => r.id), ["s-forge"]);
    assertEquals(keps.changes, [{
      from: "forgejo keps going down",
      to: ["forgejo keeps going down"],
    }]);
    assertEquals(search(s, '"vector dimention mismatch"').results.map((r) => r.id), ["s-vector"]);
    // Still a phrase: the words apart are no match, spelt right or not.
    assertEquals(search(s, '"kubernets forgejo"').results.length, 0);
  }));

Deno.test("a quoted phrase with a word in another form is matched in its forms", () =>
  withMemIndex(SESSIONS.map((s) => ({ ...s, events: s.events.map((e) => [...e]) })), (s) => {
    const forms = search(s, '"kubernetes yamls"');
    assertEquals(forms.results.map((r) => r.id), ["s-yaml"]);
    assertEquals(forms.tier, "stemmed");
    assertEquals(forms.changes, [{ from: "kubernetes yamls", to: ["kubernetes yaml"] }]);
    assertEquals(search(s, '"forgejo keep going down"').results.map((r) => r.id), ["s-forge"]);
  }));
