/**
 * Generates a synthetic Claude Code corpus for benchmarks: `<out>/projects/
 * <encoded-project>/<uuid>.jsonl`, about `mb` megabytes in files of about
 * 1.5 MB (or `fileBytes`), shaped like real transcripts (user prompts, assistant text with
 * tool_use blocks, tool_result lines, edits). Deterministic for a given seed.
 *
 * The records carry what Claude Code 2.1 writes beside the text: `requestId`,
 * `message.usage`, thinking blocks with signatures, `toolUseResult` repeating a
 * command's output (and an edit's original file), `file-history-snapshot`
 * records. Measured on the real transcripts in ../shared/realdata/claude-code,
 * the text deja indexes is 11-38 % of the JSONL bytes; this generator lands
 * near 25 %.
 *
 * Words follow a Zipf-like distribution over a generated vocabulary, so the
 * benchmark's "common" words really are common. One file holds the rare token
 * `quokkafrost`.
 *
 * @module
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYL = [
  "ka",
  "lo",
  "mi",
  "ren",
  "sto",
  "bar",
  "qui",
  "dex",
  "pol",
  "vin",
  "tra",
  "gem",
  "sul",
  "nor",
];
/** Words every benchmark query may use: the two most common ones. */
export const COMMON_WORDS = ["error", "build"];
/** The token that appears in exactly one session. */
export const RARE_TOKEN = "quokkafrost";

function vocabulary(r: () => number, n: number): string[] {
  const base = [
    ...COMMON_WORDS,
    "test",
    "file",
    "function",
    "return",
    "value",
    "config",
    "server",
    "request",
    "module",
    "import",
  ];
  const words = [...base];
  while (words.length < n) {
    let w = "";
    const k = 2 + Math.floor(r() * 3);
    for (let i = 0; i < k; i++) w += SYL[Math.floor(r() * SYL.length)];
    words.push(w);
  }
  return words;
}

function sig(r: () => number, n: number): string {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let out = "";
  for (let i = 0; i < n; i++) out += abc[Math.floor(r() * 64)];
  return out;
}

function uuid(r: () => number): string {
  const h = () => Math.floor(r() * 16).toString(16);
  const s = (n: number) => Array.from({ length: n }, h).join("");
  return `${s(8)}-${s(4)}-4${s(3)}-a${s(3)}-${s(12)}`;
}

/**
 * Writes the corpus.
 *
 * @param mb approximate size in megabytes (10^6 bytes).
 * @param fileBytes the size of a file; the last one takes what is left.
 * @returns number of files and bytes written.
 */
export function generate(
  out: string,
  mb: number,
  seed = 7,
  fileBytes = 1.5e6,
): { files: number; bytes: number } {
  const r = rng(seed);
  const vocab = vocabulary(r, 20000);
  // Zipf-ish: index = floor(n ^ u^2.5) concentrates mass on the first words.
  const word = () =>
    vocab[Math.min(vocab.length - 1, Math.floor(Math.pow(vocab.length, Math.pow(r(), 2.2))) - 1)];
  const sentence = (n: number) => Array.from({ length: n }, word).join(" ");
  const target = mb * 1e6;
  let bytes = 0;
  let files = 0;
  let t = Date.parse("2026-06-01T09:00:00Z");
  while (bytes < target) {
    const proj = `/home/dev/work/proj${files % 40}`;
    const dir = join(out, "projects", proj.replaceAll("/", "-"));
    mkdirSync(dir, { recursive: true });
    const sid = uuid(r);
    const lines: string[] = [];
    let size = 0;
    let prev: string | null = null;
    const push = (o: Record<string, unknown>) => {
      const u = uuid(r);
      t += 1000 + Math.floor(r() * 20000);
      const rec = {
        parentUuid: prev,
        isSidechain: false,
        userType: "external",
        cwd: proj,
        sessionId: sid,
        version: "2.1.300",
        gitBranch: "main",
        uuid: u,
        timestamp: new Date(t).toISOString(),
        ...o,
      };
      prev = u;
      const s = JSON.stringify(rec);
      lines.push(s);
      size += s.length + 1;
    };
    const fileTarget = Math.min(fileBytes, target - bytes + 2000);
    let turn = 0;
    while (size < fileTarget) {
      const prompt = sentence(8 + Math.floor(r() * 30)) +
        (files === 3 && turn === 2 ? ` ${RARE_TOKEN}` : "");
      push({ type: "user", message: { role: "user", content: prompt } });
      const mid = `msg_${uuid(r).replaceAll("-", "")}`;
      const requestId = `req_${uuid(r).replaceAll("-", "")}`;
      const usage = {
        input_tokens: Math.floor(r() * 5000),
        cache_creation_input_tokens: Math.floor(r() * 20000),
        cache_read_input_tokens: Math.floor(r() * 90000),
        output_tokens: Math.floor(r() * 900),
        service_tier: "standard",
      };
      if (r() < 0.5) {
        push({
          type: "assistant",
          requestId,
          message: {
            id: mid,
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [{ type: "thinking", thinking: sentence(40), signature: sig(r, 800) }],
            stop_reason: null,
            usage,
          },
        });
      }
      push({
        type: "assistant",
        requestId,
        message: {
          id: mid,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          content: [{ type: "text", text: sentence(20 + Math.floor(r() * 80)) }],
          stop_reason: null,
          usage,
        },
      });
      const callId = `toolu_${uuid(r).replaceAll("-", "")}`;
      const edit = r() < 0.3;
      const oldString = sentence(10);
      const newString = sentence(12);
      const filePath = `${proj}/src/${word()}.ts`;
      push({
        type: "assistant",
        requestId,
        message: {
          id: mid,
          type: "message",
          role: "assistant",
          model: "claude-sonnet-4-5",
          stop_reason: "tool_use",
          usage,
          content: [
            edit
              ? {
                type: "tool_use",
                id: callId,
                name: "Edit",
                input: { file_path: filePath, old_string: oldString, new_string: newString },
              }
              : {
                type: "tool_use",
                id: callId,
                name: "Bash",
                input: { command: `npm run ${word()} -- --${word()}`, description: sentence(4) },
              },
          ],
        },
      });
      const fail = r() < 0.15;
      const output = sentence(30 + Math.floor(r() * 300));
      push({
        type: "user",
        message: {
          role: "user",
          content: [{
            type: "tool_result",
            tool_use_id: callId,
            content: (fail ? "Exit code 1\n" : "") + output,
            is_error: fail,
          }],
        },
        toolUseResult: edit
          ? {
            filePath,
            oldString,
            newString,
            originalFile: sentence(150 + Math.floor(r() * 250)),
            structuredPatch: [{
              oldStart: 1,
              oldLines: 1,
              newStart: 1,
              newLines: 1,
              lines: [`-${oldString}`, `+${newString}`],
            }],
            userModified: false,
            replaceAll: false,
          }
          : { stdout: output, stderr: "", interrupted: false, isImage: false },
      });
      if (turn % 3 === 0) {
        push({
          type: "file-history-snapshot",
          messageId: uuid(r),
          snapshot: {
            messageId: uuid(r),
            trackedFileBackups: {},
            timestamp: new Date(t).toISOString(),
          },
          isSnapshotUpdate: false,
        });
      }
      turn++;
    }
    writeFileSync(join(dir, `${sid}.jsonl`), lines.join("\n") + "\n");
    bytes += size;
    files++;
  }
  return { files, bytes };
}

/**
 * The corpus of `mb` megabytes under `work` (`<work>/claude-v2-<mb>mb`),
 * generated when missing (or when `fresh`), with its size in bytes.
 */
export function ensureCorpus(
  work: string,
  mb: number,
  fresh = false,
  fileKb = 1500,
): { dir: string; bytes: number } {
  const dir = join(work, `claude-v2-${mb}mb${fileKb === 1500 ? "" : `-${fileKb}kb`}`);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  // A marker without the generator's figures (an older bench wrote `{}`) is no marker.
  const marker = join(dir, "done");
  const figures = () => {
    try {
      return (JSON.parse(readFileSync(marker, "utf8")) as { bytes?: unknown }).bytes;
    } catch {
      return undefined;
    }
  };
  if (typeof figures() !== "number") {
    rmSync(dir, { recursive: true, force: true });
    const t = performance.now();
    const g = generate(dir, mb, 7, fileKb * 1000);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "done"), JSON.stringify(g));
    console.log(
      `generated ${g.files} files, ${(g.bytes / 1e6).toFixed(1)} MB in ${
        ((performance.now() - t) / 1000).toFixed(1)
      } s`,
    );
  }
  return { dir, bytes: figures() as number };
}
