/**
 * The view's "Files agents touched most" of a project: one row per file, whichever
 * separators an agent wrote inside a Windows path (trial 56: one file listed twice).
 */
import { assertEquals } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { Q } from "../lib/schema.ts";

Deno.test("a Windows file written with both separators is one row of a project's files", async () => {
  const ix = await indexSessions([{
    id: "5e1f0000-1111-4222-8333-444455556666",
    cwd: "C:\\Users\\u\\vault",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "update the docket" },
      { read: "C:\\Users\\u\\vault\\!/!/DOCKET.md" },
      { edit: "C:\\Users\\u\\vault\\!\\!\\DOCKET.md", old: "a", new: "b" },
      { read: "/srv/app/x.md" },
      { say: "Done." },
    ],
  }]);
  try {
    const project = String(
      ix.store.db.prepare("SELECT project FROM sessions LIMIT 1").get()!.project,
    );
    const rows = Q.viewProjectFiles.all(ix.store, { project });
    assertEquals(
      rows.map((r) => [r.path, r.reads, r.edits, r.sessions]).sort(),
      [["/srv/app/x.md", 1, 0, 1], ["C:\\Users\\u\\vault\\!\\!\\DOCKET.md", 1, 1, 1]],
    );
  } finally {
    ix.cleanup();
  }
});

Deno.test("a project's files count a failed edit or write as failed, as blame does, not as done", async () => {
  // Trial 63: "edits 1, writes 1" on the page, "0 edits · 0 writes · 2 failed" in blame.
  const ix = await indexSessions([{
    id: "5e1f0000-1111-4222-8333-444455556667",
    cwd: "/w/k8s",
    start: "2026-11-01T10:00:00Z",
    turns: [
      { user: "scale the frontend" },
      { edit: "/w/k8s/deploy.yaml", old: "replicas: 1", new: "replicas: 3", fail: true },
      { write: "/w/k8s/deploy.yaml", content: "replicas: 3\n", fail: true },
      { edit: "/w/k8s/svc.yaml", old: "port: 80", new: "port: 8080" },
      { say: "Done." },
    ],
  }]);
  try {
    const rows = Q.viewProjectFiles.all(ix.store, { project: "/w/k8s" });
    assertEquals(
      rows.map((r) => [r.path, r.edits, r.writes, r.failed]).sort(),
      [["/w/k8s/deploy.yaml", 0, 0, 2], ["/w/k8s/svc.yaml", 1, 0, 0]],
    );
  } finally {
    ix.cleanup();
  }
});
