/**
 * The session simulation: the example hosts run 50 steps where only the
 * clock, the git status and the todo list change; each provider's
 * documented cache rules are applied to the requests the adapters build.
 * Prints the share of tools + system tokens read from cache on steps
 * 2..50, before (the volatile facts as system sections) and after (the
 * same facts in the runtime context), as the Markdown table of
 * docs/adapters.md. The rules and assumptions are in
 * tests/support/cache_simulation.ts.
 *
 *     deno run --lock=deno.lock --allow-read --allow-env --allow-sys=hostname bench/cache_session.ts
 *
 * @module
 */

import { simulate } from "../tests/support/cache_simulation.ts";

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const rows = await simulate(50);
console.log("| host | provider | tools + system tokens | before | after |");
console.log("| ---- | -------- | --------------------: | -----: | ----: |");
for (const row of rows) {
  console.log(
    `| ${row.host} | ${row.provider} | ${
      row.prefixTokens.toLocaleString("en")
    } | ${percent(row.before)} | ${percent(row.after)} |`,
  );
}
