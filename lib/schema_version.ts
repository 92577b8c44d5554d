/**
 * The index's schema version, apart from the schema (./schema.ts re-exports it): a no-op
 * `deja index` compares it with the stat manifest's without loading some 200 query
 * declarations (lib/fresh/quick.ts, issue 18).
 *
 * @module
 */

/** Current schema version (stored in `PRAGMA user_version`). */
export const SCHEMA_VERSION = 14;
