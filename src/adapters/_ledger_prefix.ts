/**
 * A step's cached prefix as the ledger sees it: its parts (tools and
 * system parts) in the provider's order, each with the hash of the whole
 * prefix through it, and its breakpoints.
 *
 * @module
 */

import type { Stability } from "../../mod.ts";

/** One tool or system part of the prefix. */
export interface PrefixPart {
  kind: "tool" | "section";
  /** A tool's or section's name; a list item's path (`"skills/git"`). */
  name: string;
  owner?: string;
  layer?: string;
  stability: Stability;
  tokens: number;
  /** Hash of its content. */
  hash: string;
  /** Hash of the prefix through it: a 53-bit number, quick as a key. */
  prefix: number;
  /** Tokens of the prefix through it. */
  end: number;
  /** Content blocks of the request through it (tools and system blocks). */
  blocks: number;
}

/** A breakpoint: after part `index`. */
export interface PrefixBreakpoint {
  index: number;
  ttl: "5m" | "1h";
}

/** A step's prefix. */
export interface StepPrefix {
  provider: string;
  parts: PrefixPart[];
  breakpoints: PrefixBreakpoint[];
  /** Tokens the plan expects later steps to read: 0 where it caches nothing. */
  expected: number;
  minTokens: number;
  /** Whether the provider caches by itself (no breakpoints). */
  automatic: boolean;
}

/** A part before its place in the prefix is known. */
export type Placed = Omit<PrefixPart, "prefix" | "end" | "blocks">;
