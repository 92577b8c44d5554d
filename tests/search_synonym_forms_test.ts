/**
 * A word's synonyms lend their inflections, not every word of their stem (trials 25 and
 * 27: `auth` read `author`, `authority` and `authored`, because the stemmer makes them one
 * stem with `authorization`).
 */
import { assertEquals } from "./_assert.ts";
import { search } from "../lib/search.ts";
import { withAblation } from "../lib/search/rank.ts";
import { type MemSession, withMemIndex } from "./_search_fixture.ts";

const HISTORY: MemSession[] = [
  { id: "s-auth", events: [["user", "the auth token is refreshed on every request"]] },
  { id: "s-authn", events: [["user", "authentication fails behind the proxy"]] },
  { id: "s-authz", events: [["user", "the authorizations table lost its index"]] },
  { id: "s-author", events: [["user", "set the author of the commits to the bot"]] },
  { id: "s-authority", events: [["user", "the certificate authority expired last week"]] },
  { id: "s-other", events: [["user", "rename the staging bucket"]] },
];

Deno.test("auth reads its synonyms and their inflections, not author or authority", () =>
  withMemIndex(HISTORY, (s) => {
    const ids = (r: ReturnType<typeof search>) => r.results.map((x) => x.id).sort();
    assertEquals(ids(search(s, "auth")), ["s-auth", "s-authn", "s-authz"]);
    // Without that rule, the synonyms `authorize` and `authorization` still keep their `-iz`
    // in their forms (trial 118 F4): no `author`, no `authority` either way.
    const wide = withAblation(["synonymStems"], () => search(s, "auth"));
    assertEquals(ids(wide), ["s-auth", "s-authn", "s-authz"]);
  }));

Deno.test("the forms line names only words some listed session lacks as typed", () =>
  withMemIndex([
    { id: "s-deploy", events: [["user", "the deployment of the kustomize overlay failed"]] },
    { id: "s-kust", events: [["user", "rename the kustomization file"]] },
    { id: "s-app", events: [["user", "deploy the app on friday"]] },
    { id: "s-other", events: [["user", "rename the staging bucket"]] },
  ], (s) => {
    const r = search(s, "deploy kustomize");
    assertEquals(r.results.map((x) => x.id), ["s-deploy"]);
    assertEquals(r.tier, "stemmed");
    // The session holds `kustomize` as typed: only `deploy` was read in another form.
    assertEquals(r.changes.map((c) => c.from), ["deploy"]);
    const all = withAblation(["usedChanges"], () => search(s, "deploy kustomize"));
    assertEquals(all.changes.map((c) => c.from), ["deploy", "kustomize"]);
  }));
