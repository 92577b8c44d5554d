/**
 * What `deja hook-prompt` leaves unsaid: past sessions that share only incidental words with
 * the prompt (lib/hooks/recall.ts promptBlock). Trial 109 F8, on the real stores of
 * ../shared/realdata: a prompt pasting a `kubectl apply` resource list named a session it
 * shared only generic words with ("gives deploy", the two held in different events, the
 * prompt's `configmap` and `ingress.networking.k8s.io` in no session of the project), and a
 * Gemini skill-extraction subagent, whose prompt lists other sessions, came first on a YAML
 * tag. The sessions here are modelled on those stores (a k3s project's Flux and Forgejo
 * sessions, a vault's LEVELSET session); each incidental case has a real match beside it.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { main } from "../main.ts";
import { indexSessions, type MemoryIndex, type SessionSpec } from "./_memory.ts";

const id = (n: number) => `e8e8${String(n).padStart(4, "0")}-0000-4000-8000-000000000000`;
const K3S = "/w/k3s";

/** Other work of the project, so that the words below are rare enough to count. */
const OTHER_WORK: SessionSpec[] = Array.from({ length: 30 }, (_, i) => ({
  id: id(100 + i),
  cwd: K3S,
  start: "2026-09-01T10:00:00Z",
  turns: [
    { user: `Rename the helper number ${i} in the billing module` },
    { say: `Renamed helper ${i}; the billing tests pass.` },
    { bash: "npm test", out: `${i} passing`, exit: 0 },
  ],
}));

/** Flux's reconcile output lists every object of the cluster (realdata crush k3s, 0627). */
const FLUX: SessionSpec = {
  id: id(1),
  cwd: K3S,
  start: "2026-10-01T10:00:00Z",
  title: "Flux Kustomization",
  turns: [
    { user: "Please help fix my kubernetes yaml files, the flux kustomization fails to reconcile" },
    {
      bash: "flux reconcile kustomization apps --with-source",
      out: '{"ConfigMap/traefik/traefik-helm-values":"unchanged",' +
        '"ServiceAccount/forgejo/forgejo":"unchanged",' +
        '"Deployment/chex-mix-timer/chex-mix-timer":"unchanged",' +
        '"Service/dashlit/dashlit":"unchanged","HelmRelease/forgejo/forgejo":"unchanged"}',
      exit: 0,
    },
    { say: "Fixed the malformed yaml; the flux kustomization reconciles again." },
  ],
};

/** A session that gives a deploy in one turn and a tag in another (realdata 237326ca's kind). */
const NOTES: SessionSpec = {
  id: id(2),
  cwd: K3S,
  start: "2026-10-02T10:00:00Z",
  turns: [
    { user: "Summarise the news notes of this week" },
    { say: "Meta is to give teens' parents more control over chatbots." },
    { bash: "git log --oneline -3", out: "a1b2c3 Merged via copilot/deploy-dependabot", exit: 0 },
    { say: "Three notes summarised; the digest shows them by day." },
  ],
};

/** Another project's session: its words are in the index, never in this project. */
const ELSEWHERE: SessionSpec = {
  id: id(6),
  cwd: "/w/other",
  start: "2026-10-06T10:00:00Z",
  turns: [
    { user: "Add a grafana dashboard for the router" },
    { say: "The grafana dashboard reads the router's metrics." },
  ],
};

/**
 * A subagent whose parent the index lacks, as Gemini CLI's background skill extraction is
 * (its prompt lists other sessions and its skills' YAML): automated, about no request.
 */
const EXTRACTION: SessionSpec = {
  id: id(3),
  agent: "skill_extraction-5e5e5e5e5e5e5e5e",
  cwd: K3S,
  start: "2026-10-03T10:00:00Z",
  turns: [
    {
      user: "# Existing Skills\n- **release-workflow**: tags: [release, workflow] Cut a " +
        "release by pushing a tag; the workflow publishes it.\n# Session Index\n[NEW] 3 sessions",
    },
    { say: "No new skill: the sessions repeat no procedure." },
  ],
};

/** A compaction whose parent the index lacks: its summary stands for the parent's work. */
const COMPACTION: SessionSpec = {
  id: id(4),
  agent: "acompact-4c4c4c4c4c4c4c4c",
  cwd: K3S,
  start: "2026-10-04T10:00:00Z",
  turns: [
    { user: "Summarise the conversation so far." },
    {
      say: "Summary: the zorptron exporter crashed on start; its scrape_interval was " +
        "lowered to 15s and the zorptron pod came back.",
    },
  ],
};

/** Where the release tags were really set up. */
const RELEASES: SessionSpec = {
  id: id(5),
  cwd: K3S,
  start: "2026-10-05T10:00:00Z",
  turns: [
    { user: "Publish the images when a release tag is pushed" },
    { write: "/w/k3s/.forgejo/workflows/release.yaml", content: "on:\n  push:\n    tags: [v*]\n" },
    { say: "The release workflow now runs on pushed tags and publishes the images." },
  ],
};

const ALL = [...OTHER_WORK, FLUX, NOTES, EXTRACTION, COMPACTION, RELEASES, ELSEWHERE];

let n = 0;
/** What hook-prompt says for `prompt` in the project (a new agent session each time). */
async function recall(ix: MemoryIndex, prompt: string): Promise<string> {
  const out: string[] = [];
  const code = await main({
    args: ["hook-prompt"],
    env: ix.env,
    cwd: K3S,
    out: (t) => out.push(t),
    err: () => {},
    isTTY: false,
    errTTY: false,
    readStdin: () =>
      Promise.resolve(JSON.stringify({ session_id: `agent-p${n++}`, cwd: K3S, prompt })),
  });
  assertEquals(code, 0);
  return out.length ? JSON.parse(out.join("")).hookSpecificOutput.additionalContext : "";
}

const cites = (text: string, s: SessionSpec) => text.includes(`id ${s.id.slice(0, 8)})`);

Deno.test("hook-prompt names no session for a pasted kubectl apply list whose objects the project never held", async () => {
  const ix = await indexSessions(ALL);
  try {
    // Held: `gives`, `deploy` (apart, in NOTES), `configmap`, `service` (FLUX); never
    // held: `ingress.networking.k8s.io`, the `web-config` of the prompt's own objects.
    const pasted = "kubectl apply -f deploy.yaml gives: deployment.apps/web configured, " +
      "service/web unchanged, configmap/web-config created, " +
      "ingress.networking.k8s.io/web created. Why does the pod stay pending?";
    assertEquals(await recall(ix, pasted), "");
    // The project's real work is still recalled.
    const real = await recall(ix, "the flux kustomization fails to reconcile again");
    assert(cites(real, FLUX), real);
  } finally {
    ix.cleanup();
  }
});

Deno.test("hook-prompt names no session whose words are only spread over its events", async () => {
  const ix = await indexSessions(ALL);
  try {
    // `parents` and `merged` are both in NOTES, never in one event (trial 109 F8: "gives
    // deploy", so held by a session about the week's news).
    assertEquals(await recall(ix, "the parents branch was merged twice"), "");
    // Held in one event, the same kind of words are a match.
    const real = await recall(ix, "who gives the teens parents control");
    assert(cites(real, NOTES), real);
  } finally {
    ix.cleanup();
  }
});

Deno.test("hook-prompt names no subagent whose parent the index lacks, but for a compaction", async () => {
  const ix = await indexSessions(ALL);
  try {
    // The skill extraction holds `skills` and `tags` together; RELEASES is the work on tags.
    const t = await recall(ix, "which skills use the release tags workflow");
    assert(!cites(t, EXTRACTION), t);
    assert(cites(t, RELEASES), t);
    // A compaction's summary is its parent's work: still recalled.
    const c = await recall(ix, "the zorptron exporter crashed again");
    assert(cites(c, COMPACTION), c);
  } finally {
    ix.cleanup();
  }
});

Deno.test("hook-prompt searches one word alone only when it is no common English word", async () => {
  const ix = await indexSessions(ALL);
  try {
    // `shows`, held once here, is the prompt's only word the index holds.
    assertEquals(await recall(ix, "kubectl get pods shows CrashLoopBackOff for the api"), "");
    // The only one this project holds, `grafana` being another project's.
    assertEquals(await recall(ix, "grafana shows no data"), "");
    // A name the project holds is searched alone (trial 18's `quokkamatic`).
    const t = await recall(ix, "what about zorptron again");
    assertStringIncludes(t, 'on "zorptron"');
  } finally {
    ix.cleanup();
  }
});

/** A session about a crashing service, named in its first prompt (realdata crush k3s, 0d21b928). */
const FORGEJO: SessionSpec = {
  id: id(7),
  cwd: K3S,
  start: "2026-10-07T10:00:00Z",
  turns: [
    { user: "Forgejo keeps going down in my k3s cluster, get to the bottom of it" },
    { bash: "kubectl -n forgejo get pods", out: "forgejo-0   0/1   CrashLoopBackOff", exit: 0 },
    { say: "The forgejo pod ran out of memory; its limit is raised and it stays up." },
  ],
};

/** Everyday words of a long prompt, each held by this project, never beside the service. */
const CHATTER: SessionSpec = {
  id: id(8),
  cwd: K3S,
  start: "2026-10-08T10:00:00Z",
  turns: [
    { user: "Wait a few minutes before the retry" },
    { say: "The retry now waits; the job restarts on its own." },
    { user: "Why does the cache miss so often?" },
    { say: "The cache keeps stale keys; they are dropped now." },
  ],
};

/** The cluster's other work: `k3s`, `cluster`, `forgejo` and `pod` are common words here. */
const CLUSTER_WORK: SessionSpec[] = Array.from({ length: 8 }, (_, i) => ({
  id: id(200 + i),
  cwd: K3S,
  start: "2026-09-02T10:00:00Z",
  turns: [
    { user: `Upgrade node ${i} of the k3s cluster` },
    { say: `Node ${i} of the k3s cluster is upgraded; the forgejo pod moved to node ${i + 1}.` },
  ],
}));

// Trial 113 F7: each half of a long prompt recalled the session, the whole prompt nothing: its
// weightiest words (`few`, `minutes`, `keeps`, `restarts`) were everyday ones no event held
// together, and the fallbacks never reached the words one event did hold.
Deno.test("hook-prompt recalls the session one event of which holds most of a long prompt's words", async () => {
  const ix = await indexSessions([...OTHER_WORK, ...CLUSTER_WORK, FORGEJO, CHATTER]);
  try {
    const long = await recall(
      ix,
      "Forgejo keeps crashing again in the k3s cluster, the pod restarts every few minutes. " +
        "Can you find out why?",
    );
    assert(cites(long, FORGEJO), long);
    // Its halves, as before.
    assert(cites(await recall(ix, "forgejo pod restarts"), FORGEJO));
  } finally {
    ix.cleanup();
  }
});
