/**
 * A second blind set of lay phrasings for the recall benchmark: how a person who
 * forgot the code's words would name each component, describe each symptom and
 * recall each root cause, plus frames, troubles that never happened, and
 * components the code base does not have (for negatives).
 *
 * Written blind on 2026-12-07 by a helper session that read only
 * bench/recall_world.ts and bench/gen_recall.ts: no search code, no thesaurus,
 * no other query set, and nothing was run against it. Never tuned.
 *
 * @module
 */

/** Two lay names per component, keyed by its `noun`. */
export const BLIND2_COMPONENTS: Record<string, [string, string]> = {
  checkout: [
    "the moment of paying at the end of buying",
    "where buyers hand over their card at the till",
  ],
  login: ["the password prompt on our website", "where folks punch in username and password"],
  webhook: [
    "the url stripe pings once funds clear",
    "the inbound ping that tells us somebody paid",
  ],
  indexer: [
    "the part that keeps our content findable",
    "whatever scans our wares so people can find them",
  ],
  resizer: [
    "the piece that crops and downsizes pics",
    "whatever turns huge camera shots into browser-friendly dimensions",
  ],
  email: ["the process behind newsletters and receipts", "what delivers stuff to folks' mailboxes"],
  billing: ["what debits paying members on a regular cycle", "the recurring dues collection"],
  middleware: ["the gatekeeper that vets incoming traffic", "the bouncer deciding who may enter"],
  profile: ["where people's bio and avatar live", "the about-me engine"],
  notification: [
    "the pile of pings headed to phones",
    "what buzzes people's phones when something happens",
  ],
  exporter: [
    "how finance grabs figures as excel sheets",
    "the piece that hands accountants their monthly figures",
  ],
  limiter: [
    "the piece telling chatty integrations to calm down",
    "the hits-per-minute quota enforcer",
  ],
  flags: ["the dark-launch levers", "what decides which experiments are live for whom"],
  session: ["where the info behind a cookie lives", "what remembers you from visit to visit"],
  upload: [
    "the drag-in backend that accepts people's documents",
    "whatever takes stuff dragged in from a laptop",
  ],
  gateway: [
    "the hub that stitches our backends together",
    "the single doorway all frontends talk to",
  ],
  metrics: ["the plumbing behind our grafana charts", "how measurements travel into grafana"],
  pdf: ["the acrobat download maker", "what arranges the paper-ready handouts"],
  daemon: [
    "the resident agent that keeps laptop contents twinned with the cloud",
    "the never-sleeping courier keeping laptops and cloud identical",
  ],
  invoice: [
    "what spits the paperwork companies pay against",
    "whatever drafts itemised statements for our buyers",
  ],
  cart: [
    "the bag icon with stuff you've picked",
    "what holds the merch someone means to buy later",
  ],
  dashboard: [
    "the control room for our pager-carrying folks",
    "the management ui employees poke around in",
  ],
  websocket: [
    "the persistent bidirectional pipe to browsers",
    "the channel browsers keep dangling for instant pings",
  ],
  audit: [
    "the tamper-proof diary of who touched what",
    "what we hand regulators when they come knocking",
  ],
  geocoding: [
    "what turns a street into lat/lng",
    "the third-party we ask where places sit on the globe",
  ],
  thumbnail: [
    "the stash of tiny pics shown in grids",
    "where postage-stamp pictures are kept around",
  ],
  onboarding: ["the welcome tour for newcomers", "the hand-holding intro once someone joins"],
  translation: ["the part fetching language packs", "what pulls in the french and german wording"],
  backup: ["our disaster-recovery dumps", "the routine that stashes a spare of everything offsite"],
  recommendation: [
    "the personalised picks carousel",
    "what guesses which merchandise someone might enjoy",
  ],
};

/** Two question templates per symptom `word`; `{c}` is where the component goes. */
export const BLIND2_SYMPTOMS: Record<string, [string, string]> = {
  "502": [
    "why is {c} coughing five-oh-twos",
    "nothing behind the balancer answered for {c}, so browsers received a 5xx",
  ],
  timeout: [
    "{c} can't keep pace once lots of folks arrive at once",
    "why does {c} take ages and then bail when it's busy",
  ],
  leak: ["{c} fattens hour by hour and finally topples", "why was {c} bloated by sunrise"],
  deadlock: [
    "{c} gridlocks whenever structure upgrades land",
    "why did {c} seize mid-upgrade, two sides in a stalemate",
  ],
  twice: ["why did {c} hit cards an extra go", "{c} debited buyers once too often"],
  drops: [
    "why is {c} quietly swallowing stuff",
    "some payloads handed to {c} never arrive and nothing complains",
  ],
  stale: [
    "why does {c} display yesterday's figures",
    "{c} kept presenting outdated stuff for hours",
  ],
  crashes: ["why can't {c} even come alive", "{c} keels over the instant we wake it"],
  hangs: ["{c} won't die when we ask it to", "why does {c} linger for ages after sigterm"],
  logout: [
    "why does {c} keep booting folks at odd moments",
    "folks are booted from {c} without warning",
  ],
  blank: ["{c} appears completely bare", "why do folks stare at a void where {c} should be"],
  rejects: [
    "why does {c} bounce perfectly legit bearer creds",
    "{c} turns away signed-in folks whose badge is fine",
  ],
  corrupts: [
    "contents emerge from {c} mangled",
    "why is everything people hand {c} scrambled afterwards",
  ],
  timezone: [
    "why does {c} assume everyone lives in london",
    "{c} forgets which part of the planet folks are in",
  ],
  duplicate: [
    "folks received an identical letter from {c}, then another",
    "why does {c} spam each recipient with clones",
  ],
  cpu: [
    "{c} burns every processor at full tilt",
    "why is {c} hogging the chip so the machine crawls",
  ],
  nightly: [
    "why does the 2am automated compile choke on {c}",
    "each morning the late-evening compile is broken by {c}",
  ],
  totals: ["why don't the grand figures from {c} match reality", "{c} tallies stuff badly"],
  retry: ["why won't {c} ever surrender and accept defeat", "{c} blows past the max attempts"],
  disk: ["{c} packs the drive to the brim", "why did {c} leave the machine with zero bytes free"],
};

/** Two descriptions per cause `word`; `{c}` is where the component goes, if anywhere. */
export const BLIND2_CAUSES: Record<string, [string, string]> = {
  pool: [
    "{c} ran dry on reusable sockets to the sql box",
    "all the reusable links to the sql backend were spoken for",
  ],
  index: [
    "lookups sorted by purchase date in {c} did full scans",
    "the sql side had nothing to hasten sorting purchases by date",
  ],
  race: [
    "simultaneous re-attempts inside {c} clobbered a row",
    "an interleaving bug where parallel re-attempts collided",
  ],
  cache: [
    "{c} kept trusting memoised answers predating the structure shift",
    "the memoised lookups survived the restructure untouched",
  ],
  cron: [
    "the trigger in {c} followed the machine's wall clock rather than greenwich",
    "the recurring trigger went by our region's hours rather than coordinated universal",
  ],
  unbounded: [
    "the backlog in {c} grew without a ceiling",
    "the drainer hoarded everything it pulled, without a max",
  ],
  serializer: [
    "{c} fired a separate sql lookup for each row",
    "the outgoing-payload shaping made a separate trip for each nested child",
  ],
  pagination: [
    "a fencepost mistake when {c} fetched successive chunks",
    "{c} skipped a row at each chunk boundary",
  ],
  certificate: [
    "the encryption credential {c} leans on had lapsed",
    "a private handshake inside {c} broke, its secure identity having outlived its shelf life",
  ],
  cors: [
    "the cross-domain whitelist for {c} was botched",
    "browsers blocked {c}, our domains weren't permitted there",
  ],
  overflow: [
    "the tally in {c} went past two billion and flipped sign",
    "the hit tally flipped negative past billions",
  ],
  await: [
    "{c} didn't pause for the async persist to finish",
    "an async persist in {c} was fired and never joined",
  ],
  circular: [
    "the entity definitions in {c} were a chicken-and-egg ring",
    "in {c} entity A pulled in entity B, which pulled in entity A",
  ],
  environment: [
    "the pod for {c} arrived lacking an env knob",
    "nobody supplied the env knob {c} relies on",
  ],
  heartbeat: [
    "keep-alive pings from {c} came too rarely, so the balancer hung",
    "the balancer cut quiet sockets ahead of {c} bothering to ping",
  ],
  rounding: [
    "decimal fuzz crept in when {c} turned dollars into euros",
    "{c} kept prices as doubles and pennies went astray swapping denominations",
  ],
  lock: [
    "{c} kept a mutex grabbed while talking to a remote host",
    "a mutex stayed taken for the whole outbound trip to another host",
  ],
  idempotency: [
    "{c} never verified whether an incoming operation was a replay",
    "nothing caught replayed submissions on {c}",
  ],
  backtracking: [
    "a pattern match in {c} exploded exponentially on nasty text",
    "a wildcard matcher in {c} went exponential on crafted payloads",
  ],
  pagesize: [
    "someone lifted the per-fetch ceiling so {c} dumped whole collections",
    "the how-many-rows knob quietly became infinite",
  ],
};

/** Frames around a cause description `{x}`. */
export const BLIND2_CAUSE_FRAMES: string[] = [
  "didn't we once learn that {x}?",
  "find the chat where we learned {x}",
  "what did we do when {x}?",
  "I recall a bug where {x} — which chat was that",
];

/** Troubles that never happened to any component (negatives); `{c}` is the component. */
export const BLIND2_NEVER: string[] = [
  "why does {c} show everything in comic sans",
  "{c} swapped the colours to purple for everyone",
  "{c} started answering in klingon",
  "why does {c} turn every emoji into a question mark",
  "apple pulled {c} from the app store",
  "{c} plays an audio jingle on each visit",
  "why is {c} spelling every word backwards",
  "{c} shows a dancing cat where the logo belongs",
];

/** Components the code base does not have (negatives). */
export const BLIND2_NOT_OURS: string[] = [
  "the loyalty rewards program",
  "the chatbot widget",
  "the video transcoder",
  "the warehouse barcode scanner",
  "the tax calculator",
  "the fleet tracker",
  "the kiosk firmware",
  "the voice assistant skill",
];
