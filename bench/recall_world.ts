/**
 * The vocabulary of the recall benchmark's generated history: components,
 * technologies, symptoms, causes, fixes, error templates, identifiers, and the
 * filler words of everyday chatter, plus a separate pool of topics that never
 * appear in the history (for negative queries). Plain data; bench/gen_recall.ts
 * draws from it.
 *
 * @module
 */

/** A component of the imaginary code base, with the words a person uses for it. */
export interface Component {
  /** As written in the sessions. */
  name: string;
  /** A distinctive noun of it (used in word queries). */
  noun: string;
}

export const COMPONENTS: Component[] = [
  { name: "checkout service", noun: "checkout" },
  { name: "login page", noun: "login" },
  { name: "payment webhook", noun: "webhook" },
  { name: "search indexer", noun: "indexer" },
  { name: "image resizer", noun: "resizer" },
  { name: "email worker", noun: "email" },
  { name: "billing cron", noun: "billing" },
  { name: "auth middleware", noun: "middleware" },
  { name: "profile api", noun: "profile" },
  { name: "notification queue", noun: "notification" },
  { name: "report exporter", noun: "exporter" },
  { name: "rate limiter", noun: "limiter" },
  { name: "feature flag service", noun: "flags" },
  { name: "session store", noun: "session" },
  { name: "upload handler", noun: "upload" },
  { name: "graphql gateway", noun: "gateway" },
  { name: "metrics pipeline", noun: "metrics" },
  { name: "pdf renderer", noun: "pdf" },
  { name: "sync daemon", noun: "daemon" },
  { name: "invoice generator", noun: "invoice" },
  { name: "shopping cart", noun: "cart" },
  { name: "admin dashboard", noun: "dashboard" },
  { name: "websocket server", noun: "websocket" },
  { name: "audit log", noun: "audit" },
  { name: "geocoding client", noun: "geocoding" },
  { name: "thumbnail cache", noun: "thumbnail" },
  { name: "onboarding wizard", noun: "onboarding" },
  { name: "translation loader", noun: "translation" },
  { name: "backup job", noun: "backup" },
  { name: "recommendation model", noun: "recommendation" },
];

export const TECHS = [
  "postgres",
  "redis",
  "kafka",
  "nginx",
  "docker",
  "kubernetes",
  "terraform",
  "webpack",
  "vite",
  "jest",
  "pytest",
  "django",
  "express",
  "react",
  "grpc",
  "sqlite",
  "elasticsearch",
  "rabbitmq",
  "celery",
  "prisma",
  "fastapi",
  "nextjs",
  "playwright",
  "cypress",
  "mongodb",
  "graphql",
  "tailwind",
  "sentry",
  "github actions",
  "s3",
];

/** Symptom phrases; `word` is the one a person would search for. */
export const SYMPTOMS: Array<{ text: string; word: string; ask: string }> = [
  { text: "returns 502 errors", word: "502", ask: "return 502s" },
  { text: "times out under load", word: "timeout", ask: "time out" },
  { text: "leaks memory overnight", word: "leak", ask: "leaking memory" },
  { text: "deadlocks during migrations", word: "deadlock", ask: "deadlocking" },
  { text: "charges customers twice", word: "twice", ask: "double charge people" },
  { text: "drops messages silently", word: "drops", ask: "lose messages" },
  { text: "serves stale data", word: "stale", ask: "show old data" },
  { text: "crashes on startup", word: "crashes", ask: "crash when it starts" },
  { text: "hangs on shutdown", word: "hangs", ask: "hang when stopping" },
  { text: "logs users out randomly", word: "logout", ask: "log people out" },
  { text: "renders a blank screen", word: "blank", ask: "show a blank page" },
  { text: "rejects valid tokens", word: "rejects", ask: "reject good tokens" },
  { text: "corrupts uploaded files", word: "corrupts", ask: "break uploaded files" },
  { text: "loses the timezone", word: "timezone", ask: "get the time zone wrong" },
  { text: "sends duplicate emails", word: "duplicate", ask: "send the same email twice" },
  { text: "spikes cpu to 100%", word: "cpu", ask: "max out the cpu" },
  { text: "fails the nightly build", word: "nightly", ask: "break the nightly" },
  { text: "returns wrong totals", word: "totals", ask: "compute wrong sums" },
  { text: "ignores the retry limit", word: "retry", ask: "retry forever" },
  { text: "overflows the disk", word: "disk", ask: "fill the disk" },
];

/** Causes: the text, and a word unique to it that a person remembers. */
export const CAUSES: Array<{ text: string; word: string }> = [
  { text: "the connection pool was exhausted", word: "pool" },
  { text: "a missing index on orders.created_at", word: "index" },
  { text: "a race condition in the retry loop", word: "race" },
  { text: "a stale cache key after the schema change", word: "cache" },
  { text: "the cron expression used local time instead of UTC", word: "cron" },
  { text: "an unbounded queue in the consumer", word: "unbounded" },
  { text: "an n+1 query in the serializer", word: "serializer" },
  { text: "an off-by-one in the pagination cursor", word: "pagination" },
  { text: "an expired TLS certificate on the internal endpoint", word: "certificate" },
  { text: "a misconfigured CORS origin list", word: "cors" },
  { text: "an integer overflow in the request counter", word: "overflow" },
  { text: "a forgotten await before the commit", word: "await" },
  { text: "a circular import between the models", word: "circular" },
  { text: "an environment variable missing from the container", word: "environment" },
  {
    text: "the websocket heartbeat interval being longer than the proxy idle timeout",
    word: "heartbeat",
  },
  { text: "floating point rounding in the currency conversion", word: "rounding" },
  { text: "a lock held across the network call", word: "lock" },
  { text: "the idempotency key not being checked", word: "idempotency" },
  { text: "a regex with catastrophic backtracking", word: "backtracking" },
  { text: "the default pageSize being changed to unlimited", word: "pagesize" },
];

/** Fixes: what was done. */
export const FIXES = [
  "raised the pool size to 50 and added a checkout timeout",
  "added a composite index and rewrote the query",
  "wrapped the update in a transaction with a retry guard",
  "versioned the cache key and purged the old entries",
  "switched the schedule to UTC and added a test",
  "bounded the queue and added backpressure",
  "prefetched the relations in one query",
  "fixed the cursor arithmetic and added a property test",
  "rotated the certificate and added an expiry alert",
  "moved the allowed origins into config",
  "switched the counter to a 64-bit integer",
  "awaited the commit and added a lint rule for floating promises",
  "moved the shared types into their own module",
  "added the variable to the deployment manifest",
  "lowered the heartbeat interval below the idle timeout",
  "switched to integer cents for every amount",
  "released the lock before the call",
  "stored and checked the idempotency key per request",
  "replaced the regex with a small parser",
  "restored the page size cap of 100",
];

/** Words with the forms a person may type instead (the benchmark's word-forms queries). */
export const FORMS: Record<string, string[]> = {
  migrations: ["migration", "migrating"],
  deployment: ["deploy", "deploys"],
  configuration: ["config", "configs"],
  database: ["db", "databases"],
  authentication: ["auth", "authenticating"],
  kubernetes: ["k8s"],
  retries: ["retry", "retrying"],
  crashes: ["crash", "crashing", "crashed"],
  timeouts: ["timeout", "timed"],
  duplicated: ["duplicate", "duplicates"],
  rejected: ["reject", "rejecting"],
  corrupted: ["corrupt", "corrupting"],
  exhausted: ["exhaust", "exhausting"],
  connections: ["connection", "connecting"],
  dependencies: ["deps", "dependency"],
  permissions: ["permission", "perms"],
  repository: ["repo", "repos"],
  environment: ["env", "environments"],
  certificates: ["certificate", "cert"],
  directories: ["directory", "dir"],
};

/** Error templates; `{n}` numbers, `{w}` a word, `{p}` a path change from copy to copy. */
export const ERRORS = [
  "TypeError: Cannot read properties of undefined (reading '{w}')",
  "Error: connect ECONNREFUSED 127.0.0.1:{n}",
  'psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "{w}_pkey"',
  "ModuleNotFoundError: No module named '{w}'",
  "Error: listen EADDRINUSE: address already in use :::{n}",
  "panic: runtime error: index out of range [{n}] with length {n}",
  "SyntaxError: Unexpected token '<', \"<!DOCTYPE \"... is not valid JSON",
  "sqlite3.OperationalError: database is locked",
  "KeyError: '{w}'",
  'java.lang.NullPointerException: Cannot invoke "{w}.getId()" because "order" is null',
  "RuntimeError: CUDA out of memory. Tried to allocate {n}.00 MiB",
  "Error: ENOENT: no such file or directory, open '{p}'",
  "fatal: unable to access 'https://git.example.com/{w}.git/': SSL certificate problem: certificate has expired",
  "ReferenceError: {w} is not defined",
  'django.db.utils.ProgrammingError: relation "{w}" does not exist',
  "redis.exceptions.ConnectionError: Error 111 connecting to localhost:{n}. Connection refused.",
  "AssertionError: expected {n} to equal {n}",
  "Error [ERR_REQUIRE_ESM]: require() of ES Module {p} not supported",
  "OSError: [Errno 28] No space left on device: '{p}'",
  "TimeoutError: Navigation timeout of {n} ms exceeded",
];

export const VERBS = [
  "refresh",
  "compute",
  "validate",
  "resolve",
  "render",
  "schedule",
  "parse",
  "enqueue",
  "normalize",
  "reconcile",
  "hydrate",
  "throttle",
  "serialize",
  "dispatch",
  "persist",
  "rebuild",
];
export const NOUNS = [
  "Session",
  "Token",
  "Invoice",
  "Totals",
  "Cart",
  "Order",
  "Payload",
  "Cursor",
  "Batch",
  "Quota",
  "Ledger",
  "Avatar",
  "Receipt",
  "Webhook",
  "Tenant",
  "Snapshot",
  "Manifest",
  "Bucket",
  "Shard",
  "Digest",
];

/** Everyday words of a coding conversation (drawn Zipf-like for filler). */
export const FILLER = (
  "the to and a of is in it that for this we you i be on with not can as are have if " +
  "but so now do at or from what by all just will there one about up out when which then " +
  "file test code function change run error check let me look see need should would could " +
  "make use add update fix think like also here time value line new first other case way " +
  "build type return call config data user name set get work try want because still only " +
  "output result issue next into some more after before again same thing looks good right " +
  "sure okay done step back version local branch commit push merge review tests passing " +
  "failing log logs debug print import module package install script command server client " +
  "request response api endpoint route handler service job task queue worker event message " +
  "field column table query model schema migration record list item key map array string " +
  "number object class method param option flag path folder directory read write open close " +
  "start stop wait retry limit size count total page view component state props hook render " +
  "style layout button form input submit click load save delete create remove rename move " +
  "copy compare diff patch hunk context comment docs readme note todo plan idea approach " +
  "option maybe probably actually basically simply quick small big long short old clean " +
  "refactor rewrite split extract inline rename helper util common shared base core main " +
  "app lib src dist cache memory disk network timeout latency slow fast performance load " +
  "ci pipeline deploy release staging production environment variable secret setting default"
).split(" ");

/** Topics that never appear in the generated history (negative queries). */
export const ABSENT = [
  "flutter hot reload broken on the android emulator",
  "pulumi stack lock stuck in dynamodb",
  "elixir genserver mailbox overflow",
  "swiftui preview canvas crash",
  "haskell cabal dependency hell",
  "unity shader compile error on metal",
  "ansible vault decryption failure",
  "cobol copybook field alignment",
  "blender python addon registration",
  "kotlin coroutine scope leak in viewmodel",
  "fortran array bounds in the solver",
  "arduino serial baud rate garbage",
  "latex bibliography not rendering",
  "vhdl testbench clock skew",
  "solidity reentrancy guard audit",
  "wordpress plugin activation white screen",
  "sharepoint list permissions inheritance",
  "matlab simulink solver step size",
  "godot signal connection missing",
  "excel vba macro security prompt",
  "zig comptime allocator error",
  "ocaml dune build cycle",
  "xamarin ios provisioning profile",
  "salesforce apex governor limits",
  "erlang hot code upgrade appup",
  "unreal blueprint cast failed",
  "perl cpan module xs compile",
  "cassandra tombstone compaction storm",
  "clojure leiningen uberjar manifest",
  "nix flake lock update hash mismatch",
];

/**
 * How people describe a component without its name: two ways each, in words
 * the sessions do not use. The first is the tuning set (`paradev`), the second
 * is held out (`paraphrase`): written before any measurement, never tuned against.
 */
export const COMPONENT_ALIASES: Record<string, [string, string]> = {
  checkout: ["purchase flow", "order placement step"],
  login: ["sign-in screen", "place where people authenticate"],
  webhook: ["card processor callback", "callback the payment provider hits"],
  indexer: ["full-text crawler", "thing that builds the lookup catalogue"],
  resizer: ["picture scaling step", "photo shrinking code"],
  email: ["outgoing mail sender", "mailer"],
  billing: ["monthly charge run", "scheduled subscription charging"],
  middleware: ["request guard that checks credentials", "permission layer in front of routes"],
  profile: ["account details backend", "user info service"],
  notification: ["push alert backlog", "alerts fan-out"],
  exporter: ["spreadsheet download feature", "csv export"],
  limiter: ["request throttling", "thing that caps callers"],
  flags: ["toggle system", "switches for turning features on"],
  session: ["logged-in state storage", "where sign-in state is kept"],
  upload: ["file intake endpoint", "attachment receiving code"],
  gateway: ["api front door", "query federation layer"],
  metrics: ["telemetry flow", "stats collection"],
  pdf: ["printable document generator", "document printing"],
  daemon: ["background replication process", "mirroring process"],
  invoice: ["bill creation", "code that produces bills"],
  cart: ["basket", "items people put aside before buying"],
  dashboard: ["back-office panel", "staff console"],
  websocket: ["realtime socket endpoint", "live push connection"],
  audit: ["trail of who changed what", "compliance history"],
  geocoding: ["address to coordinates lookup", "map location lookup"],
  thumbnail: ["preview image store", "small previews"],
  onboarding: ["first-run setup flow", "signup walkthrough"],
  translation: ["i18n strings loading", "localization files"],
  backup: ["nightly snapshot copy", "data archival task"],
  recommendation: ["suggestions engine", "you-might-also-like ranking"],
};

/** How people describe a symptom in other words (keyed by its `word`): tuning, held out. */
export const SYMPTOM_PARAPHRASES: Record<string, [string, string]> = {
  "502": ["bad gateway responses", "the proxy says upstream is down"],
  timeout: ["gets sluggish and gives up when traffic is high", "requests hang forever at peak"],
  leak: ["ram keeps growing until it gets killed", "gets oom-killed every morning"],
  deadlock: ["schema changes get stuck waiting on each other", "alter table freezes everything"],
  twice: ["people get billed two times", "double billing on purchases"],
  drops: ["things vanish from the queue without a trace", "some events never arrive"],
  stale: ["shows outdated info", "old values keep showing after edits"],
  crashes: ["dies immediately when launched", "won't boot"],
  hangs: ["never exits when we terminate it", "stuck when terminating"],
  logout: ["people get signed off for no reason", "sessions expire unexpectedly"],
  blank: ["shows nothing but white", "empty white window"],
  rejects: ["good credentials are refused", "correct jwt gets a 401"],
  corrupts: ["attachments come out damaged", "files are garbled after sending"],
  timezone: ["dates shift by a few hours", "hours are off for people abroad"],
  duplicate: ["people get the same mail repeatedly", "inbox flooded with copies"],
  cpu: ["processor pegged", "fans spin up and the box is pegged"],
  nightly: ["overnight ci goes red", "the scheduled build breaks every night"],
  totals: ["sums don't add up", "amounts are incorrect"],
  retry: ["keeps trying endlessly", "never stops reattempting"],
  disk: ["storage fills up", "runs out of space on the volume"],
};
