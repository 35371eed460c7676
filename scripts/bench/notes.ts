/**
 * Where we lose: every target missed, every figure of the summary in which
 * a peer or the floor is ahead of ours by more than the noise, and why, in
 * terms of what the code does that the other side does not. No reason
 * quotes a figure that the report did not measure.
 *
 * @module
 */

import { FAST_PEERS, median, type Ratio, SIZES } from "./ratios.ts";
import { cell, met, shown } from "./tables.ts";

/** Why ours loses, by the kind of group it loses in. */
const REASONS: readonly [RegExp, string][] = [
  [
    /^render /,
    "**A full render with reuse defeated** (new values every iteration, " +
    "nothing of an earlier render reusable). Per section, ours checks the " +
    "fields of the part (a handler may have changed any of them), reads " +
    "each value as an own property that must be a string, and walks the " +
    "text's parsed parts; the floor does none of the checks. doT and lodash " +
    "compile each text to straight-line JavaScript (`it.name` appended to " +
    "string constants) and run below even the edge-trimmed floor, which " +
    "walks an array of parts as ours does; ours generates no code (no " +
    "`new Function` in the library: it must run where code generation is " +
    "forbidden).",
  ],
  [
    /, flattened$/,
    "**Flattened steps against the peers.** A peer renders every section " +
    "and leaves a rope that must be flattened before it is sent; ours " +
    "compares every provider's answer with the last step's, renders again " +
    "only the sections a change reaches, joins the prompt again, and that " +
    "prompt is flattened too. When one variable changes, the comparisons " +
    "and the join cost more than the peers' rendering of everything at " +
    "the small and medium sizes; when every variable changes, ours renders " +
    "everything as the peers do, through the walk that loses in the full " +
    "render above, and pays for the comparisons on top.",
  ],
  [
    /^(unchanged|one|every) [^,]*$/,
    "**Steps against the memoizing floor.** Ours calls every provider " +
    "through the registry's snapshot, checks what each returned (a string, " +
    "a tool list of valid tools) and keeps a memory per agent; the floor " +
    "knows its providers and trusts them. Above all, ours compares every " +
    "tool a provider returned with its last copy, one deep walk of the " +
    "schema per tool and step, so that a schema edited in place is never " +
    "answered with a stale copy; the floor compares the provider's array " +
    "by identity, which sends a stale schema after such an edit. With the " +
    "scenario's 20, 60 and 100 tools, that walk is where the unchanged and " +
    "one-variable steps lose. No walk can be cheaper than reading every " +
    "node (the reading floor: the memoizing floor that also reads every " +
    "field of every tool and compares nothing; its figures are above), so " +
    "these groups stay behind a floor that reads none; where the " +
    "host deep froze its tools (the `, frozen schemas` groups), identity " +
    "is exact and the registry uses it too, and the ratios there are the " +
    "registry's own overhead.",
  ],
];

/** The lines of "Where we lose". */
export function losses(ratios: readonly Ratio[]): string[] {
  const lines: string[] = [];
  const kinds: string[] = [];
  for (const ratio of ratios) {
    if (met(ratio) !== false) continue;
    const { label, op, limit } = ratio.target!;
    lines.push(
      `- ${label} (${ratio.group}): ${
        shown(median(ratio.values), ratio.unit)
      }, target ${op} ${limit}×`,
    );
    kinds.push(ratio.group);
  }
  const behind = (group: string, column: string) =>
    ratios.find((r) => r.group === group && r.column === column);
  for (const size of SIZES) {
    for (
      const group of [
        `render ${size}`,
        `unchanged step ${size}, flattened`,
        `one variable changed ${size}, flattened`,
        `one section changed ${size}, flattened`,
        `every variable changed ${size}, flattened`,
      ]
    ) {
      const ratio = behind(group, "best fast peer/ours");
      if (ratio === undefined || median(ratio.values) >= 0.95) continue;
      const peers = FAST_PEERS.filter((peer) => {
        const r = behind(group, `${peer}/ours`);
        return r !== undefined && median(r.values) < 1;
      });
      lines.push(
        `- ${group}: best peer / ours ${
          cell(ratios, group, "best fast peer/ours")
        } (faster than ours: ${peers.join(", ")})`,
      );
      kinds.push(group);
    }
  }
  lines.push(
    `- reading every field of every tool, once per step (unchanged steps): reading floor / memoizing floor ${
      SIZES.map((size) =>
        `${size} ${
          cell(ratios, `unchanged step ${size}`, "read floor/memo floor")
        }`
      ).join(", ")
    }; ours / reading floor ${
      SIZES.map((size) =>
        `${size} ${cell(ratios, `unchanged step ${size}`, "ours/read floor")}`
      ).join(", ")
    }`,
  );
  lines.push(
    `- 100 agents (medium): ours / per-agent reading floor ${
      cell(ratios, "agents 100 medium", "ours/per-agent reading floor")
    }`,
  );
  kinds.push("unchanged step medium");
  lines.push(
    `- full render, reuse defeated, ours / edge-trimmed floor: ${
      SIZES.map((size) =>
        `${size} ${cell(ratios, `render ${size}`, "ours/floor")}`
      )
        .join(", ")
    }`,
  );
  kinds.push("render medium");
  lines.push("");
  for (const [pattern, reason] of REASONS) {
    if (kinds.some((group) => pattern.test(group))) lines.push(`- ${reason}`);
  }
  return lines;
}
