/** Labels of a remote's sessions. */
import { assertEquals } from "../../tests/_assert.ts";
import { mapPath } from "./label.ts";

Deno.test("mapPath maps a path that points into the mirror back to the remote's own path", () => {
  const label = {
    origin: "box",
    pathMaps: [{ remote: "/srv/app", local: "/home/me/app" }],
    mirror: "/d/remotes/box",
  };
  // aider's project is the directory its history file was read from: inside the mirror.
  assertEquals(mapPath(label, "/d/remotes/box/home/u/proj"), "box:/home/u/proj");
  assertEquals(mapPath(label, "/d/remotes/box/srv/app/src"), "/home/me/app/src");
  assertEquals(mapPath(label, "/home/u/proj"), "box:/home/u/proj");
  assertEquals(mapPath(label, "/d/remotes/boxer/x"), "box:/d/remotes/boxer/x");
});
