/**
 * The error of the example plugin host and its config loader.
 *
 * @module
 */

/** A config or plugin-loading failure, with the plugin at fault if any. */
export class HostError extends Error {
  /** The plugin at fault, if one is. */
  readonly plugin: string | undefined;

  constructor(
    message: string,
    options: { plugin?: string; cause?: unknown } = {},
  ) {
    super(message, "cause" in options ? { cause: options.cause } : undefined);
    this.name = "HostError";
    this.plugin = options.plugin;
  }
}
