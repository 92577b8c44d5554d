/**
 * Related words: how a person describes a problem in plain words, and the
 * words a coding session writes for the same thing (`ram` -> `memory`,
 * `billed` -> `charges`, `basket` -> `cart`). Looser than the synonyms of
 * lib/search/synonyms.ts — a related word is a hint, not the same word — so
 * only the `relevance` tier reads them (nothing matched as typed), where a
 * question in other words lands; the literal tiers never widen with them.
 *
 * Rules for a group: the first word is the one a session writes; the others
 * are everyday words people use for it in a coding conversation. Words are
 * index tokens (lower case, letters and digits), matched by their stem too
 * (`billed`, `billing` -> `bill`).
 *
 * @module
 */
import { stemmer } from "stemmer";

/** Groups: the session's word first, then plain words for it. */
export const RELATED_GROUPS: readonly (readonly string[])[] = [
  ["memory", "ram", "heap", "rss"],
  ["leak", "growing", "grows", "balloon", "creep"],
  ["timeout", "sluggish", "slow", "unresponsive", "lag", "laggy"],
  ["load", "traffic", "busy", "rush"],
  ["502", "gateway"],
  ["deadlock", "stuck", "frozen", "waiting"],
  ["hangs", "stuck", "frozen", "unresponsive", "exits", "terminate"],
  ["shutdown", "terminate", "exit", "exits", "sigterm"],
  ["crashes", "dies", "died", "segfault", "abort", "boom"],
  ["startup", "launch", "launched", "start"],
  ["charges", "billed", "bill", "charged", "paid", "pays"],
  ["twice", "two", "repeated", "repeatedly"],
  ["duplicate", "same", "repeatedly", "copies", "twice"],
  ["drops", "vanish", "vanishes", "missing", "lost", "disappear", "disappears"],
  ["stale", "outdated", "cached", "obsolete"],
  ["logout", "signed", "kicked"],
  ["blank", "white", "nothing"],
  ["rejects", "refused", "refuses", "denied", "403", "invalid"],
  ["corrupts", "damaged", "broken", "mangled", "truncated"],
  ["timezone", "utc", "hours", "offset", "dst"],
  ["cpu", "processor", "pegged"],
  ["nightly", "overnight"],
  ["totals", "sums", "sum", "add"],
  ["retry", "trying", "endlessly", "again"],
  ["disk", "storage", "full"],
  ["checkout", "purchase", "pay"],
  ["login", "sign", "signin"],
  ["webhook", "callback", "callbacks", "processor"],
  ["payment", "card", "stripe", "processor"],
  ["indexer", "crawler", "crawl", "catalog"],
  ["image", "picture", "pictures"],
  ["resizer", "scaling", "scale", "resize"],
  ["email", "mail", "mails"],
  ["billing", "charge", "monthly"],
  ["middleware", "guard", "interceptor", "filter"],
  ["profile", "account", "details"],
  ["notification", "alert", "alerts", "push"],
  ["queue", "backlog", "buffer"],
  ["exporter", "spreadsheet", "download"],
  ["limiter", "throttling", "throttle", "quota"],
  ["flags", "toggle", "toggles"],
  ["session", "state", "logged"],
  ["upload", "intake", "attachment", "attachments"],
  ["gateway", "front"],
  ["metrics", "telemetry", "monitoring"],
  ["pdf", "printable", "document"],
  ["daemon", "background", "process"],
  ["sync", "replication", "replicate"],
  ["invoice", "bill", "bills", "billing"],
  ["cart", "basket", "bag"],
  ["dashboard", "panel", "backoffice"],
  ["admin", "office", "backoffice"],
  ["websocket", "socket", "realtime"],
  ["audit", "trail"],
  ["geocoding", "coordinates", "geocode", "latitude"],
  ["thumbnail", "preview", "previews", "thumb"],
  ["onboarding", "setup", "welcome"],
  ["translation", "i18n", "strings"],
  ["backup", "snapshot"],
  ["recommendation", "suggestions", "suggest"],
];

const stem = (w: string) => stemmer(w);
const byKey = new Map<string, Set<string>>();
for (const g of RELATED_GROUPS) {
  for (const w of g) {
    for (const k of new Set([w, stem(w)])) {
      let s = byKey.get(k);
      if (!s) byKey.set(k, s = new Set());
      for (const x of g) if (x !== w) s.add(x);
    }
  }
}

/** Words related to `word` or to its stem (empty when none). */
export function relatedTo(word: string): string[] {
  const out = new Set([...(byKey.get(word) ?? []), ...(byKey.get(stem(word)) ?? [])]);
  out.delete(word);
  return [...out];
}
