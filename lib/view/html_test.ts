/** The view's escaping (lib/view/html.ts). */
import { assertEquals } from "../../tests/_assert.ts";
import { esc, htm } from "./html.ts";

// Trial 67: a prompt holding U+202E…U+202C reversed the session page's text, where `deja show`
// printed it without them.
Deno.test("esc leaves out bidi controls and escape sequences as deja's printing does", () => {
  assertEquals(esc("ok \u202eevil\u202c done"), "ok evil done");
  assertEquals(esc("a\x1b[31mred\x1b[0m <b>"), "ared &lt;b&gt;");
  assertEquals(htm`<p>${"x\u2066y\u2069"}</p>`.value, "<p>xy</p>");
  assertEquals(esc("tab\there\nline"), "tab\there\nline");
});
