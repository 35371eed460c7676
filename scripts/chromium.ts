/**
 * The browser the inspector page is tested in: Debian's `chromium`
 * package, run headless and kept off the network.
 *
 * @module
 */

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Headless; no sandbox (CI runs as root); no network of its own. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
