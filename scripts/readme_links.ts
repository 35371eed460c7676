/**
 * Registry pages show a README without the repository around it: relative
 * links there point nowhere. The npm build makes them absolute.
 *
 * @module
 */

/**
 * `text` with every relative Markdown link target (not `#anchor`, not a
 * URL) prefixed with `base`, e.g. `…/blob/v0.1.0/`; an image's target also
 * gets `?raw=true`, so that a GitHub blob URL serves the image itself.
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
 * assert.equal(
 *   absoluteLinks("![a page](docs/page.png)", "https://g/b/"),
 *   "![a page](https://g/b/docs/page.png?raw=true)",
 * );
 * ```
 */
export function absoluteLinks(text: string, base: string): string {
  return text.replace(
    /(!?)(\[[^\]]*)\]\((?![a-z][a-z0-9+.-]*:|#|\/)([^)\s]+)\)/gi,
    (_, image: string, label: string, target: string) =>
      `${image}${label}](${base}${target.replace(/^\.\//, "")}${
        image === "" ? "" : "?raw=true"
      })`,
  );
}
