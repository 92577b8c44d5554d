/**
 * The system browser the browser tests and benchmarks drive through
 * playwright-core (its own browser download is not used): Debian's Chromium.
 */

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** The flags this machine's Chromium needs headless as root with no network. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
