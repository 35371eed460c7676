/**
 * Registry pages show a README without the repository around it: relative
 * links there point nowhere. The npm build makes them absolute.
 *
 * @module
 */

/**
 * `text` with every relative Markdown link target (not `#anchor`, not a
 * URL) prefixed with `base`, e.g. `…/blob/v0.1.0/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { absoluteLinks } from "./readme_links.ts";
 *
 * assert.equal(
 *   absoluteLinks("[d](docs/design.md) [a](#faq) [u](https://x.dev)", "https://g/b/"),
 *   "[d](https://g/b/docs/design.md) [a](#faq) [u](https://x.dev)",
 * );
 * ```
 */
export function absoluteLinks(text: string, base: string): string {
  return text.replace(
    /\]\((?![a-z][a-z0-9+.-]*:|#|\/)([^)\s]+)\)/gi,
    (_, target: string) => `](${base}${target.replace(/^\.\//, "")})`,
  );
}
