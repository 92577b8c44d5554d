/**
 * A scripted mock model server for the harness farm. It listens on 127.0.0.1
 * only, speaks the Anthropic Messages, OpenAI Chat Completions and Responses,
 * Gemini and Augment protocols (see `_mock_wire.ts`), plays one scenario (see
 * `_mock_script.ts`), and appends every request to a JSONL log. It is bounded:
 * after `maxRequests` requests or `maxMs` milliseconds it closes by itself.
 *
 * A proxy-style request (`CONNECT host:443`, or a request line naming another
 * host) is never forwarded: it is answered with an error and logged as an
 * outbound attempt, so a harness that tries to phone home shows up in the log.
 *
 * Runtime-neutral (node: built-ins only). Standalone:
 * `deno run -A tests/farm/mock_model.ts --id abc123 --project /tmp/p --log /tmp/r.jsonl`.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Buffer } from "node:buffer";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import {
  ALL_STEPS,
  decide,
  type Reply,
  type Scenario,
  SHELL_CMD,
  type Step,
  type View,
} from "./_mock_script.ts";
import * as wire from "./_mock_wire.ts";
import * as openai from "./_mock_wire_openai.ts";

/** Options of {@link startMock}. */
export interface MockOptions {
  scenario: Scenario;
  /**
   * Plays instead of the scenario for the requests it answers (undefined: the
   * scenario answers). A test's own script, e.g. `tests/farm/roundtrip.ts`.
   */
  play?: (v: View) => Reply | undefined;
  /** Absolute project directory the calls name. */
  project: string;
  /** JSONL file every request is appended to. */
  log: string;
  /** Port on 127.0.0.1 (0: any free port). */
  port?: number;
  /** Requests served at most (default 600); later ones get 429 and the server closes. */
  maxRequests?: number;
  /** Milliseconds the server lives at most (default 20 minutes). */
  maxMs?: number;
}

/** One logged request. */
export interface LoggedRequest {
  t: string;
  method: string;
  path: string;
  /** anthropic | chat | responses | gemini | augment | models | count | health | outbound | unknown | limit */
  route: string;
  headers: Record<string, string>;
  body: unknown;
  reply?: { turn: string; tool?: string; args?: unknown; text?: string };
}

/** A running mock. */
export interface Mock {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Requests served so far. */
  count(): number;
  /** Resolves when the server has closed (by {@link Mock.close} or by its bounds). */
  closed: Promise<void>;
  close(): Promise<void>;
}

const SECRET_HEADERS = ["authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"];
const MODELS = [
  "mock-model",
  "gpt-5.5",
  "gpt-4.1",
  "gpt-4o",
  "claude-sonnet-4-5",
  "gemini-2.5-flash",
];

type Obj = Record<string, unknown>;

function route(method: string, path: string): string {
  if (method === "GET" || method === "HEAD") {
    if (/\/models(\/[^/]+)?$/.test(path)) return "models";
    return "health";
  }
  if (/\/count_tokens$|:countTokens$/.test(path)) return "count";
  if (/\/messages$/.test(path)) return "anthropic";
  if (/\/chat\/completions$/.test(path)) return "chat";
  if (/\/responses$/.test(path)) return "responses";
  if (/:(stream)?[gG]enerateContent$/.test(path)) return "gemini";
  if (/\/(chat-stream|get-models|prompt-enhancer|list-remote-tools)$/.test(path)) return "augment";
  return "unknown";
}

/** Answers one model request; returns the payload and the reply for the log. */
function answer(
  r: string,
  path: string,
  body: Obj,
  o: MockOptions,
): [wire.Payload, Reply | undefined] {
  const play = (v: View) => o.play?.(v) ?? decide(o.scenario, v, o.project);
  if (r === "anthropic") {
    const rep = play(wire.anthropicView(body));
    return [wire.anthropicReply(body, rep), rep];
  }
  if (r === "chat") {
    const rep = play(openai.chatView(body));
    return [openai.chatReply(body, rep), rep];
  }
  if (r === "responses") {
    const rep = play(openai.responsesView(body));
    const cmd = rep.kind === "tool" ? String(Object.values(rep.args)[0] ?? SHELL_CMD) : SHELL_CMD;
    return [openai.responsesReply(body, rep, cmd), rep];
  }
  if (r === "gemini") {
    const rep = play(wire.geminiView(body));
    return [wire.geminiReply(rep, /:stream/.test(path)), rep];
  }
  if (/get-models$/.test(path)) {
    const model = {
      name: "mock-model",
      suggested_prefix_char_count: 4000,
      suggested_suffix_char_count: 4000,
    };
    return [{
      json: { default_model: "mock-model", models: [model], feature_flags: {}, languages: [] },
    }, undefined];
  }
  if (/list-remote-tools$/.test(path)) return [{ json: { tools: [] } }, undefined];
  const rep = play(
    /prompt-enhancer$/.test(path)
      ? { ...wire.augmentView(body), tools: [] }
      : wire.augmentView(body),
  );
  return [wire.augmentReply(rep), rep];
}

function send(res: ServerResponse, p: wire.Payload, code = 200): void {
  if ("json" in p) {
    const s = JSON.stringify(p.json);
    res.writeHead(code, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(s),
    });
    res.end(s);
  } else if ("sse" in p) {
    res.writeHead(code, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.end(p.sse.join(""));
  } else {
    res.writeHead(code, { "content-type": "application/json" });
    res.end(p.ndjson.map((l) => JSON.stringify(l) + "\n").join(""));
  }
}

/** Starts the mock on 127.0.0.1. @throws when the port cannot be bound. */
export function startMock(o: MockOptions): Promise<Mock> {
  const maxRequests = o.maxRequests ?? 600;
  mkdirSync(dirname(o.log), { recursive: true });
  let served = 0;
  const server = createServer();
  const log = (e: LoggedRequest) => {
    try {
      appendFileSync(o.log, JSON.stringify(e) + "\n");
    } catch { /* the log is best effort */ }
  };
  const headersOf = (req: IncomingMessage) => {
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      h[k] = SECRET_HEADERS.includes(k) ? "<redacted>" : String(v);
    }
    return h;
  };
  server.on("connect", (req: IncomingMessage, socket: { destroy(): void }) => {
    served++;
    log({
      t: new Date().toISOString(),
      method: "CONNECT",
      path: req.url ?? "",
      route: "outbound",
      headers: headersOf(req),
      body: null,
    });
    // Dropped like an unreachable network: some harnesses treat an HTTP refusal as fatal.
    socket.destroy();
  });
  // A client that resets its connection must not bring the mock down.
  server.on(
    "connection",
    (sock: { on(e: string, f: () => void): void }) => sock.on("error", () => {}),
  );
  server.on("clientError", (_e: Error, sock: { destroy(): void }) => sock.destroy());
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    req.on("error", () => {});
    res.on("error", () => {});
    const remote = req.socket.remoteAddress ?? "";
    if (!/^(127\.|::1$|::ffff:127\.)/.test(remote)) {
      req.socket.destroy();
      return;
    }
    const chunks: Uint8Array[] = [];
    req.on("data", (c: Uint8Array) => chunks.push(c));
    req.on("end", () => {
      served++;
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Obj = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        body = { _raw: raw.slice(0, 10_000) };
      }
      const method = req.method ?? "GET";
      const target = req.url ?? "/";
      const url = new URL(target, "http://127.0.0.1");
      const path = url.pathname;
      // A proxy-style request line naming this mock is served; one naming any other host is not.
      const local = target.startsWith("/") ||
        /^(127\.0\.0\.1|localhost|\[::1\])$/.test(url.hostname);
      let r = local ? route(method, path) : "outbound";
      const entry: LoggedRequest = {
        t: new Date().toISOString(),
        method,
        path: req.url ?? "",
        route: r,
        headers: headersOf(req),
        body,
      };
      try {
        if (served > maxRequests) {
          r = entry.route = "limit";
          send(res, { json: { error: { message: "mock: request limit reached" } } }, 429);
          setTimeout(() => server.close(), 0);
        } else if (r === "outbound") {
          req.socket.destroy();
        } else if (r === "models") {
          const id = path.match(/\/models\/([^/]+)$/)?.[1];
          send(res, {
            json: id ? { id, object: "model", owned_by: "farm", name: `models/${id}` } : {
              object: "list",
              data: MODELS.map((m) => ({ id: m, object: "model", owned_by: "farm" })),
              models: MODELS.map((m) => ({
                name: `models/${m}`,
                supportedGenerationMethods: ["generateContent"],
              })),
            },
          });
        } else if (r === "count") send(res, { json: { input_tokens: 100, totalTokens: 100 } });
        else if (r === "health") send(res, { json: { ok: true } });
        else if (r === "unknown") {
          send(res, {
            json: /augment/i.test(req.headers["user-agent"] ?? "")
              ? {}
              : { error: { message: `mock: no route for ${method} ${path}` } },
          }, /augment/i.test(req.headers["user-agent"] ?? "") ? 200 : 404);
        } else {
          const [payload, rep] = answer(r, path, body, o);
          send(res, payload);
          if (rep) {
            entry.reply = rep.kind === "tool"
              ? { turn: rep.turn, tool: rep.tool.name, args: rep.args }
              : { turn: rep.turn, text: rep.text };
          }
        }
      } catch (e) {
        entry.route += ".error";
        try {
          send(res, { json: { error: { message: String((e as Error).stack ?? e) } } }, 500);
        } catch { /* already sent */ }
      }
      log(entry);
    });
  });
  const closed = new Promise<void>((resolve) => server.on("close", () => resolve()));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      const timer = setTimeout(() => server.close(), o.maxMs ?? 20 * 60_000);
      (timer as { unref?: () => void }).unref?.();
      closed.then(() => clearTimeout(timer));
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        count: () => served,
        closed,
        close() {
          server.close();
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          return closed;
        },
      });
    });
  });
}

/** Reads a request log written by the mock. */
export function readLog(text: string): LoggedRequest[] {
  return text.split("\n").filter(Boolean).flatMap((l) => {
    try {
      return [JSON.parse(l) as LoggedRequest];
    } catch {
      return [];
    }
  });
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      id: { type: "string", default: "demo01" },
      steps: { type: "string", default: ALL_STEPS.join(",") },
      "agent-type": { type: "string" },
      project: { type: "string", default: process.cwd() },
      log: { type: "string", default: "requests.jsonl" },
      port: { type: "string", default: "0" },
      "max-requests": { type: "string", default: "600" },
      "max-seconds": { type: "string", default: "1200" },
    },
  });
  const mock = await startMock({
    scenario: {
      id: values.id!,
      steps: values.steps!.split(",") as Step[],
      agentType: values["agent-type"],
    },
    project: values.project!,
    log: values.log!,
    port: Number(values.port),
    maxRequests: Number(values["max-requests"]),
    maxMs: Number(values["max-seconds"]) * 1000,
  });
  console.log(mock.url);
  await mock.closed;
}
