/**
 * Test support: materialises a registry fixture in a temporary directory and
 * runs a parser over it the way the indexer would (discover, then parse every
 * source from the start, then fold chunks).
 *
 * Fixture rules: every file under fixtures/registry/<id>/ is copied; the text
 * `@ROOT@` inside any file is replaced by the temporary directory's path (so a
 * Crush projects.json can name real directories); a `name.sql` file becomes the
 * SQLite database `name` (the SQL executed), and is not copied as text.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { makeEnv } from "../core/runtime.ts";
import { SourceCtx } from "../lib/parse_ctx.ts";
import { mergeChunks } from "../lib/merge.ts";
import type { Discovery, Env, Parser, Session, SourceRef } from "../core/model.ts";
import { tempDir } from "./_tmp.ts";

export const REPO = join(dirname(new URL(import.meta.url).pathname), "..");

/** Copies fixtures/registry/<id> (or any directory) into a new temp dir. */
export function materialize(srcDir: string): { root: string; cleanup(): void } {
  const root = tempDir("deja-fx-");
  const visit = (dir: string) => {
    for (const ent of readdirSync(dir, { withFileTypes: true })) {
      const from = join(dir, ent.name);
      const rel = relative(srcDir, from);
      if (ent.isDirectory()) {
        mkdirSync(join(root, rel), { recursive: true });
        visit(from);
        continue;
      }
      const buf = readFileSync(from);
      if (ent.name.endsWith(".sql")) {
        const target = join(root, rel.slice(0, -4));
        mkdirSync(dirname(target), { recursive: true });
        const db = new DatabaseSync(target);
        db.exec(buf.toString("utf8").replaceAll("@ROOT@", root));
        db.close();
        continue;
      }
      const out = buf.includes("@ROOT@")
        ? Buffer.from(buf.toString("utf8").replaceAll("@ROOT@", root))
        : buf;
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), out);
    }
  };
  visit(srcDir);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** What {@link runParser} returns. */
export interface ParserRun {
  discovery: Discovery;
  sessions: Session[];
  /** Per source path: skip counts. */
  skips: Record<string, Record<string, number>>;
  /** Per source path: the error that stopped it, if any. */
  errors: Record<string, string>;
}

/** Runs discovery and a full parse of every source. */
export async function runParser(
  parser: Parser,
  env: Env,
  knownProjects: string[] = [],
): Promise<ParserRun> {
  const discovery = await parser.discover({ env, knownProjects });
  const chunks: Session[] = [];
  const skips: ParserRun["skips"] = {};
  const errors: ParserRun["errors"] = {};
  for (const src of discovery.sources) {
    const ctx = new SourceCtx(env);
    try {
      for await (const s of parser.parse(src, ctx)) chunks.push(s);
    } catch (e) {
      errors[src.path] = String((e as Error).message ?? e);
    }
    if (ctx.skipped) skips[src.path] = ctx.counts as Record<string, number>;
  }
  return { discovery, sessions: mergeChunks(chunks), skips, errors };
}

/** Parses one source directly (no discovery). */
export async function parseOne(
  parser: Parser,
  src: SourceRef,
  env: Env,
  opts: { offset?: number; state?: unknown; since?: number } = {},
): Promise<{ sessions: Session[]; ctx: SourceCtx }> {
  const ctx = new SourceCtx(env, opts.offset ?? 0, opts.state, opts.since ?? 0);
  const chunks: Session[] = [];
  for await (const s of parser.parse(src, ctx)) chunks.push(s);
  return { sessions: mergeChunks(chunks), ctx };
}

/** An Env whose home is `home` and whose variables are exactly `vars`. */
export function testEnv(home: string, vars: Record<string, string> = {}): Env {
  return makeEnv({ HOME: home, ...vars }, home);
}

/**
 * Normalises sessions for golden comparison: the temp root becomes `<root>`,
 * keys sorted, undefined fields dropped.
 */
export function normalize(value: unknown, root: string): unknown {
  const json = JSON.stringify(value, (_k, v) => {
    if (typeof v === "string") return v.replaceAll(root, "<root>");
    if (v && typeof v === "object" && !Array.isArray(v)) {
      return Object.fromEntries(
        Object.entries(v)
          .map(([k, x]): [string, unknown] => [k.replaceAll(root, "<root>"), x])
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    }
    return v;
  });
  return JSON.parse(json);
}
