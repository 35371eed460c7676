/**
 * A tool's fingerprint: the SHA-256 of its canonical JSON (keys sorted at
 * every depth), computed synchronously in plain TypeScript, so that a host
 * can pin the definition a user approved and see when it changes.
 *
 * @module
 */

import { canonicalJson } from "./_canonical_json.ts";
import { sha256, utf8 } from "./_sha256.ts";
import type { ToolSchema } from "./types.ts";

/**
 * A tool's fingerprint: the lowercase hex SHA-256 of its canonical JSON
 * (its name, description, parameters and other JSON fields, such as
 * `deferLoading`; keys sorted at every depth, arrays in order). The
 * registry's copy of a tool has the fingerprint of the tool it was made
 * from; key order does not change it, any other change does. Pin it with
 * the `toolPins` option.
 *
 * @param tool A tool, the registry's copy or the host's own.
 * @returns 64 lowercase hex characters.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolFingerprint } from "@dsh/system-prompt";
 *
 * const a = toolFingerprint({ name: "t", description: "d", parameters: { type: "object", required: [] } });
 * const b = toolFingerprint({ parameters: { required: [], type: "object" }, description: "d", name: "t" });
 * assert.equal(a, b);
 * assert.match(a, /^[0-9a-f]{64}$/);
 * ```
 */
export function toolFingerprint(tool: ToolSchema): string {
  return sha256(utf8(canonicalJson(tool)));
}
