/**
 * Which of a prompt's words `deja hook-prompt` searches (lib/hooks/recall.ts promptBlock).
 * Regression of trial 9 (a k3s project): "add redis to the kubernetes cluster" searched only
 * the two rarest words, "cluster kubernetes", and left out the session about adding Redis.
 */
import { assert, assertEquals, assertStringIncludes } from "./_assert.ts";
import { main } from "../main.ts";
import { indexSessions, type SessionSpec } from "./_memory.ts";
import { PROMPT_CHARS, promptWords } from "../lib/hooks/recall.ts";

const id = (n: number) => `d4d4${String(n).padStart(4, "0")}-0000-4000-8000-000000000000`;

/** Many sessions that use "redis", so it weighs less than "kubernetes" and "cluster". */
const REDIS_TALK: SessionSpec[] = Array.from({ length: 4 }, (_, i) => ({
  id: id(i),
  cwd: "/w/k3s",
  start: `2026-10-0${i + 1}T10:00:00Z`,
  turns: [
    { user: `The cache in service ${i} loses keys after a restart` },
    { say: "redis keeps them in memory; redis persistence is off, so redis starts empty." },
    { bash: "redis-cli info persistence", out: "redis aof_enabled:0", exit: 0 },
  ],
}));

/** Two sessions that say "kubernetes cluster" a lot, none of them about Redis. */
const CLUSTER_TALK: SessionSpec[] = [10, 11].map((n, i) => ({
  id: id(n),
  cwd: "/w/k3s",
  start: `2026-10-1${i}T10:00:00Z`,
  turns: [
    { user: "Upgrade the kubernetes cluster nodes; the kubernetes cluster runs k3s." },
    { say: "Drained each node of the kubernetes cluster, then upgraded the cluster." },
    { say: "The kubernetes cluster is upgraded; every cluster node is Ready." },
  ],
}));

/** Other work of the project, so that the words above are rare enough to count. */
const OTHER_WORK: SessionSpec[] = Array.from({ length: 30 }, (_, i) => ({
  id: id(100 + i),
  cwd: "/w/k3s",
  start: "2026-09-01T10:00:00Z",
  turns: [
    { user: `Rename the helper number ${i} in the billing module` },
    { say: `Renamed helper ${i}; the billing tests pass.` },
    { bash: "npm test", out: `${i} passing`, exit: 0 },
  ],
}));

const ADD_REDIS: SessionSpec = {
  id: id(20),
  cwd: "/w/k3s",
  start: "2026-10-20T10:00:00Z",
  turns: [
    { user: "Add redis to this kubernetes cluster" },
    { write: "/w/k3s/apps/redis.yaml", content: "kind: StatefulSet\n" },
    { say: "Deployed it as a StatefulSet with a volume claim." },
  ],
};

Deno.test("hook-prompt searches every informative word when the task's word is a common one", async () => {
  const ix = await indexSessions([...REDIS_TALK, ...CLUSTER_TALK, ...OTHER_WORK, ADD_REDIS]);
  try {
    const prompt = "add redis to the kubernetes cluster";
    const weighed = promptWords(ix.store, prompt);
    const words = weighed.filter((w) => w.idf >= 2).map((w) => w.word);
    // The situation of the regression: redis is the least rare of the three.
    assert(words.indexOf("redis") === 2, JSON.stringify(weighed));
    const out: string[] = [];
    const code = await main({
      args: ["hook-prompt"],
      env: ix.env,
      cwd: "/w/k3s",
      out: (t) => out.push(t),
      err: () => {},
      isTTY: false,
      errTTY: false,
      readStdin: () =>
        Promise.resolve(JSON.stringify({ session_id: "agent-r", cwd: "/w/k3s", prompt })),
    });
    assert(code === 0);
    assert(out.length, "the hook said nothing");
    const text = JSON.parse(out.join("")).hookSpecificOutput.additionalContext as string;
    assertStringIncludes(text, "redis");
    assertStringIncludes(text, `id ${ADD_REDIS.id.slice(0, 8)}`);
  } finally {
    ix.cleanup();
  }
});

Deno.test("hook-prompt weighs the words of a prompt's start only when a log of megabytes was pasted", async () => {
  // Trial 109 F7: a 14 MB prompt was split and weighed whole (1.6 s unloaded); at load ~10 the
  // hook ran out of time and said nothing.
  const ix = await indexSessions([...REDIS_TALK, ...CLUSTER_TALK, ...OTHER_WORK, ADD_REDIS]);
  try {
    const log = "lorem ipsum ".repeat(PROMPT_CHARS / 6);
    const words = (p: string) => promptWords(ix.store, p).map((w) => w.word).sort();
    assertEquals(words(`add redis to the kubernetes cluster\n${log}statefulset`), [
      "cluster",
      "kubernetes",
      "redis",
    ]);
    // Within the start, the same word counts.
    assert(words("add redis to the kubernetes statefulset").includes("statefulset"));
  } finally {
    ix.cleanup();
  }
});
