/**
 * The stdio transport of `deja mcp`: newline-delimited JSON-RPC read from a
 * byte stream, one reply line written per request, in order. Lines are split
 * on `\n` (a trailing `\r` dropped) before decoding, so a multi-byte
 * character split across reads is never cut. A line over {@link MAX_LINE}
 * bytes is skipped to its end and answered with a parse error; the server
 * keeps serving. The end of the input ends {@link serve} (after the last
 * complete or unterminated line is answered).
 *
 * @module
 */
import { ERR, errorReply, handleLine, type Handlers } from "./protocol.ts";

/** Longest line read, in bytes: 10 MiB. */
export const MAX_LINE = 10 * 1024 * 1024;

const NL = 0x0a;

/**
 * Serves requests from `input` until it ends, writing each reply as one line
 * with `write`.
 *
 * @param maxLine longest line in bytes (tests lower it).
 */
export async function serve(
  input: AsyncIterable<Uint8Array>,
  write: (line: string) => void,
  h: Handlers,
  maxLine = MAX_LINE,
): Promise<void> {
  const dec = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let dropping = false;
  const answer = async (bytes: Uint8Array | null) => {
    const reply = bytes === null
      ? errorReply(ERR.parse, `Parse error: message over ${maxLine} bytes`)
      : await handleLine(dec.decode(bytes).replace(/\r$/, ""), h);
    if (reply) write(JSON.stringify(reply) + "\n");
  };
  for await (const chunk of input) {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(NL, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!dropping) {
        parts.push(chunk.subarray(from, end));
        size += end - from;
        if (size > maxLine) {
          dropping = true;
          parts = [];
          size = 0;
        }
      }
      if (nl === -1) break;
      from = nl + 1;
      if (dropping) {
        dropping = false;
        await answer(null);
      } else {
        await answer(join(parts, size));
        parts = [];
        size = 0;
      }
    }
  }
  if (dropping) await answer(null);
  else if (size) await answer(join(parts, size));
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
