/**
 * Session vectors beside the index: `<data>/embeddings.db` (0600 in a 0700
 * directory), one row per top-level session keyed by `harness` and native id
 * (so `deja index --rebuild` keeps them), with the model that made it and a
 * stamp of the session (`updated:events`) that says when it must be made
 * again. Its own small SQLite file: the index schema does not change, and
 * deleting the file turns the vectors off without touching the index.
 *
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../core/model.ts";
import { dataDir } from "../../core/paths.ts";
import { makeDataDir } from "../store.ts";

/** Path of the vectors file. */
export function vectorsPath(env: Env): string {
  return join(dataDir(env), "embeddings.db");
}

/** One stored vector. */
export interface StoredVector {
  harness: string;
  native: string;
  stamp: string;
  vec: Float32Array;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS vectors (
  harness TEXT NOT NULL, native TEXT NOT NULL, model TEXT NOT NULL, stamp TEXT NOT NULL,
  vec BLOB NOT NULL, PRIMARY KEY (harness, native))`;

/** The vectors file, opened for reading (null when there is none) or for writing (created). */
export class Vectors {
  private constructor(private db: DatabaseSync) {}

  /** Opens for writing, creating the file 0600. */
  static write(env: Env): Vectors {
    const path = vectorsPath(env);
    makeDataDir(dataDir(env));
    const db = new DatabaseSync(
      path,
      { timeout: 5000 } as ConstructorParameters<
        typeof DatabaseSync
      >[1],
    );
    try {
      chmodSync(path, 0o600);
    } catch { /* not ours to change */ }
    db.exec("PRAGMA journal_mode = DELETE");
    db.exec(SCHEMA);
    return new Vectors(db);
  }

  /** Opens read-only; null when no vectors were ever stored. */
  static read(env: Env): Vectors | null {
    const path = vectorsPath(env);
    if (!existsSync(path)) return null;
    try {
      const db = new DatabaseSync(
        path,
        { readOnly: true, timeout: 2000 } as ConstructorParameters<
          typeof DatabaseSync
        >[1],
      );
      db.prepare("SELECT 1 FROM vectors LIMIT 1").get();
      return new Vectors(db);
    } catch {
      return null;
    }
  }

  /** Stamps of the sessions stored with `model` (`harness\0native` -> stamp). */
  stamps(model: string): Map<string, string> {
    const out = new Map<string, string>();
    const rows = this.db.prepare("SELECT harness, native, stamp FROM vectors WHERE model = ?")
      .all(model) as Array<{ harness: string; native: string; stamp: string }>;
    for (const r of rows) out.set(`${r.harness}\0${r.native}`, r.stamp);
    return out;
  }

  /** Stores (or replaces) vectors in one transaction. */
  put(model: string, rows: StoredVector[]): void {
    const st = this.db.prepare(
      "INSERT OR REPLACE INTO vectors (harness, native, model, stamp, vec) VALUES (?, ?, ?, ?, ?)",
    );
    this.db.exec("BEGIN");
    try {
      for (const r of rows) {
        st.run(r.harness, r.native, model, r.stamp, new Uint8Array(r.vec.buffer.slice(0)));
      }
      this.db.exec("COMMIT");
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Every vector made with `model`. */
  all(model: string): StoredVector[] {
    const rows = this.db.prepare(
      "SELECT harness, native, stamp, vec FROM vectors WHERE model = ?",
    ).all(model) as Array<{ harness: string; native: string; stamp: string; vec: Uint8Array }>;
    return rows.map((r) => ({
      harness: r.harness,
      native: r.native,
      stamp: r.stamp,
      vec: new Float32Array(
        r.vec.buffer.slice(r.vec.byteOffset, r.vec.byteOffset + r.vec.byteLength),
      ),
    }));
  }

  close(): void {
    try {
      this.db.close();
    } catch { /* closed */ }
  }
}
