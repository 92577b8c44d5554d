/**
 * The second blind set as the benchmark's generator takes it (bench/recall_blind.ts
 * `makeBlind`): the phrasings of bench/recall_blind2.ts, reported as kinds `blind2` and
 * `blind2neg`. Apart from the data so that wiring it in needs no reading of it.
 *
 * @module
 */
import type { BlindTables } from "./recall_blind.ts";
import {
  BLIND2_CAUSE_FRAMES,
  BLIND2_CAUSES,
  BLIND2_COMPONENTS,
  BLIND2_NEVER,
  BLIND2_NOT_OURS,
  BLIND2_SYMPTOMS,
} from "./recall_blind2.ts";

/** The second blind set. */
export const BLIND2: BlindTables = {
  kind: "blind2",
  neg: "blind2neg",
  components: BLIND2_COMPONENTS,
  symptoms: BLIND2_SYMPTOMS,
  causes: BLIND2_CAUSES,
  frames: BLIND2_CAUSE_FRAMES,
  never: BLIND2_NEVER,
  notOurs: BLIND2_NOT_OURS,
};
