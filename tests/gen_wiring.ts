/** Writes docs/wiring.md from registry.json (`deno task wiring`). */
import { writeFileSync } from "node:fs";
import { wiringMarkdown } from "../lib/install/matrix.ts";

writeFileSync(new URL("../docs/wiring.md", import.meta.url), wiringMarkdown());
