/**
 * The clock: owns the `date` variable, the time of the current step. A fact
 * that changes every step; where a section puts it decides how much of the
 * prompt the provider can keep cached (see `deno task demo --two-step`).
 *
 * @module
 */

import type { Plugin } from "../host.ts";

/** `2026-11-30T09:05:00Z` → `2026-11-30 09:05 UTC`. */
export function formatStepTime(time: string): string {
  return `${time.slice(0, 10)} ${time.slice(11, 16)} UTC`;
}

/** Registers `date`, valueless when the step has no time. */
export const clockPlugin: Plugin = {
  name: "clock",
  load({ prompt }) {
    prompt.variable(
      "date",
      (context) =>
        context.time === undefined ? undefined : formatStepTime(context.time),
    );
  },
};
