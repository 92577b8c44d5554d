/**
 * Writes one session as Claude Code 2.1 JSONL records (the shape of
 * bench/gen_claude.ts: user prompts, assistant text and tool_use blocks,
 * tool_result lines), for the recall benchmark's generated history.
 *
 * @module
 */

/** A session being written, record by record. */
export class ClaudeSession {
  private lines: string[] = [];
  private prev: string | null = null;
  private t: number;
  private n = 0;

  /**
   * @param id session id (a UUID).
   * @param cwd the project directory.
   * @param start epoch ms of the first record.
   * @param step returns the milliseconds to the next record.
   */
  constructor(
    readonly id: string,
    readonly cwd: string,
    start: number,
    private step: () => number,
  ) {
    this.t = start;
  }

  /** Epoch ms of the last record written. */
  get last(): number {
    return this.t;
  }

  private push(o: Record<string, unknown>): void {
    const uuid = `${this.id.slice(0, 24)}${String(this.n++).padStart(12, "0")}`;
    this.t += this.step();
    this.lines.push(JSON.stringify({
      parentUuid: this.prev,
      isSidechain: false,
      userType: "external",
      cwd: this.cwd,
      sessionId: this.id,
      version: "2.1.300",
      gitBranch: "main",
      uuid,
      timestamp: new Date(this.t).toISOString(),
      ...o,
    }));
    this.prev = uuid;
  }

  /** A prompt the person typed. */
  user(text: string): this {
    this.push({ type: "user", message: { role: "user", content: text } });
    return this;
  }

  /** Assistant prose. */
  assistant(text: string): this {
    this.push({
      type: "assistant",
      message: {
        id: `msg_${this.id.slice(0, 8)}${this.n}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text }],
        stop_reason: "end_turn",
      },
    });
    return this;
  }

  private tool(name: string, input: Record<string, unknown>, output: string, isError: boolean) {
    const callId = `toolu_${this.id.slice(0, 8)}${String(this.n).padStart(6, "0")}`;
    this.push({
      type: "assistant",
      message: {
        id: `msg_${this.id.slice(0, 8)}${this.n}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "tool_use", id: callId, name, input }],
        stop_reason: "tool_use",
      },
    });
    this.push({
      type: "user",
      message: {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: callId,
          content: (isError ? "Exit code 1\n" : "") + output,
          is_error: isError,
        }],
      },
    });
  }

  /** A shell command and what it printed. */
  bash(command: string, output: string, isError = false): this {
    this.tool("Bash", { command, description: "run" }, output, isError);
    return this;
  }

  /** A file read. */
  read(path: string, content: string): this {
    this.tool("Read", { file_path: path }, content, false);
    return this;
  }

  /** An edit of one span. */
  edit(path: string, oldString: string, newString: string): this {
    this.tool(
      "Edit",
      { file_path: path, old_string: oldString, new_string: newString },
      `The file ${path} has been updated.`,
      false,
    );
    return this;
  }

  /** The JSONL text. */
  jsonl(): string {
    return this.lines.join("\n") + "\n";
  }
}
