/**
 * Words of scripts written without spaces (Chinese, Japanese; Korean words with a particle
 * attached) are found inside the longer runs the index holds as one token (trial 30:
 * `deja 文件` found nothing where `--re` found it).
 */
import { assert, assertEquals } from "./_assert.ts";
import { indexSessions } from "./_memory.ts";
import { runMain, withVars } from "./_cli_io.ts";

Deno.test("a CJK word inside a longer run of text is found, two characters or more", async () => {
  const ix = await indexSessions([
    {
      id: "c1111111-2222-4333-8444-555555555555",
      cwd: "/w/zh",
      start: "2026-11-01T10:00:00Z",
      turns: [{ user: "我们修复了配置文件的错误，然后重新部署了服务。" }, { say: "好的" }],
    },
    {
      id: "c2222222-2222-4333-8444-555555555555",
      cwd: "/w/ja",
      start: "2026-11-02T10:00:00Z",
      turns: [{ user: "設定ファイルのエラーを修正しました。" }, { say: "了解" }],
    },
    {
      id: "c4444444-2222-4333-8444-555555555555",
      cwd: "/w/zh2",
      start: "2026-10-01T10:00:00Z",
      turns: [{ user: "文件" }, { say: "好的" }],
    },
    {
      id: "c3333333-2222-4333-8444-555555555555",
      cwd: "/w/ko",
      start: "2026-11-03T10:00:00Z",
      turns: [{ user: "데이터베이스 연결 오류를 고쳐 주세요" }, { say: "네" }],
    },
  ]);
  try {
    const env = withVars(ix.env, { DEJA_NO_REFRESH: "1" });
    for (
      const [q, want] of [
        ["配置文件", "/w/zh"],
        // Held alone by one session, inside a run by another: both (trial 31).
        ["文件", "/w/zh /w/zh2"],
        // Two words, each inside a run of its own (trial 31: nothing matched).
        ["配置 部署", "/w/zh"],
        ["設定 エラー", "/w/ja"],
        ["ファイル", "/w/ja"],
        ["오류", "/w/ko"],
      ]
    ) {
      const r = await runMain(env, ["search", "--json", q]);
      assertEquals(r.code, 0, `${q}: ${r.err}`);
      const projects = JSON.parse(r.out).results.map((x: { project: string }) => x.project);
      assertEquals(projects.sort(), want.split(" "), q);
    }
    // Quoted, a phrase inside a run is found; characters that are not contiguous are not.
    const quoted = await runMain(env, ["search", "--json", '"文件的错误"']);
    assertEquals(quoted.code, 0, quoted.err);
    assertEquals(JSON.parse(quoted.out).results.map((x: { project: string }) => x.project), [
      "/w/zh",
    ]);
    const apart = await runMain(env, ["search", "--json", '"配置错误"']);
    assertEquals(apart.code, 1, apart.out);
    // A CJK word in no text is still no hit.
    const none = await runMain(env, ["search", "--json", "数据库"]);
    assertEquals(none.code, 1, none.out);
    assert(!none.out.includes("/w/zh"));
  } finally {
    ix.cleanup();
  }
});
