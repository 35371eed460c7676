// Run by async_late_rejections_io.ts in a child process (deno run, or
// node on the compiled suite). Each scenario makes the registry refuse, or
// abandon, promises that reject; every rejection carries the scenario's
// name. The process records each unhandled rejection and prints one JSON
// line: per scenario, the error code the step rejected with and the
// unhandled rejections it left.
import process from "node:process";
import {
  type ItemInput,
  PromptError,
  SystemPrompt,
  type ToolSchema,
} from "../../mod.ts";

const unhandled: string[] = [];
process.on("unhandledRejection", (reason) => {
  unhandled.push(reason instanceof Error ? reason.message : String(reason));
});

type Run = "assemble" | "render";

/** Resolves the step (or aborts it); returns the code it rejected with. */
type Scenario = (name: string, run: Run) => Promise<string>;

const never = () => new Promise<never>(() => {});
/** A value some turns of the event loop later: the step waits for it. */
const later = () =>
  new Promise<string>((resolve) => setTimeout(() => resolve("v"), 30));

function codeOf(error: unknown): string {
  return error instanceof PromptError ? error.code : `not a PromptError`;
}

async function step(
  prompt: SystemPrompt,
  run: Run,
  signal?: AbortSignal,
): Promise<string> {
  try {
    await prompt[run]({}, signal === undefined ? {} : { signal });
    return "resolved";
  } catch (error) {
    return codeOf(error);
  }
}

/** A list `l` to put items in. */
function withList(): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.section({ name: "l", order: 0, text: "L:", list: {} });
  return prompt;
}

/**
 * Promises that reject with the scenario's name (`#from`, `#from+1`, …), as
 * `["a"].map(async …)` makes.
 */
function rejecting(name: string, count = 2, from = 0): Promise<never>[] {
  return Array.from(
    { length: count },
    (_, i) => Promise.reject(new Error(`${name} #${from + i}`)),
  );
}

const SCENARIOS: Record<string, Scenario> = {
  "a provider that rejects after the abort": async (name, run) => {
    const prompt = new SystemPrompt();
    let reject!: (reason: unknown) => void;
    prompt.variable("v", () => new Promise((_, no) => (reject = no)));
    const controller = new AbortController();
    const pending = step(prompt, run, controller.signal);
    controller.abort(new Error("stop"));
    const code = await pending;
    reject(new Error(name));
    return code;
  },
  "providers of every kind that reject after the abort": async (name, run) => {
    const prompt = withList();
    const rejects: ((reason: unknown) => void)[] = [];
    const late = (): never =>
      new Promise((_, no) => void rejects.push(no)) as never;
    prompt.variable("v", late);
    prompt.section({ name: "s", order: 1, text: late });
    prompt.context({ name: "c", order: 0, text: late });
    prompt.section({
      name: "m",
      order: 2,
      text: "M:",
      list: { footer: late, empty: late },
    });
    prompt.item("l", { name: "i", order: 0, text: late });
    prompt.items("l", late);
    prompt.tools(late);
    const controller = new AbortController();
    const pending = step(prompt, run, controller.signal);
    controller.abort(new Error("stop"));
    const code = await pending;
    rejects.forEach((reject, i) => reject(new Error(`${name} #${i}`)));
    return code;
  },
  "a provider that rejects while an async handler runs when the signal aborts":
    async (name, run) => {
      const prompt = new SystemPrompt();
      let reject!: (reason: unknown) => void;
      prompt.variable("v", () => "1");
      prompt.tools(() => Promise.resolve([]));
      prompt.on(
        "system-prompt/assemble",
        () => new Promise<undefined>((_, no) => (reject = no)),
      );
      const controller = new AbortController();
      const pending = step(prompt, run, controller.signal);
      await new Promise((resolve) => setTimeout(resolve, 0));
      controller.abort(new Error("stop"));
      const code = await pending;
      reject(new Error(name));
      return code;
    },
  "an array of rejecting promises that arrives after the abort": async (
    name,
    run,
  ) => {
    const prompt = withList();
    let resolveTools!: (value: unknown) => void;
    let resolveItems!: (value: unknown) => void;
    prompt.tools(() => new Promise((yes) => (resolveTools = yes)) as never);
    prompt.items(
      "l",
      () => new Promise((yes) => (resolveItems = yes)) as never,
    );
    const controller = new AbortController();
    const pending = step(prompt, run, controller.signal);
    controller.abort(new Error("stop"));
    const code = await pending;
    resolveTools(rejecting(name, 2, 0));
    resolveItems(rejecting(name, 2, 2));
    return code;
  },
  "an array of rejecting promises that arrives after the abort while another provider pends":
    async (name, run) => {
      const prompt = withList();
      let resolveTools!: (value: unknown) => void;
      let resolveItems!: (value: unknown) => void;
      prompt.variable("v", never);
      prompt.tools(() => new Promise((yes) => (resolveTools = yes)) as never);
      prompt.items(
        "l",
        () => new Promise((yes) => (resolveItems = yes)) as never,
      );
      const controller = new AbortController();
      const pending = step(prompt, run, controller.signal);
      controller.abort(new Error("stop"));
      const code = await pending;
      resolveTools(rejecting(name, 2, 0));
      resolveItems(rejecting(name, 2, 2));
      return code;
    },
  "an async tool provider's ['a'].map(async …) while another provider pends": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.tools(() =>
      Promise.resolve(rejecting(name) as unknown as ToolSchema[])
    );
    prompt.variable("v", later);
    return step(prompt, run);
  },
  "an async item provider's ['a'].map(async …) while another provider pends": (
    name,
    run,
  ) => {
    const prompt = withList();
    prompt.items(
      "l",
      () => Promise.resolve(rejecting(name) as unknown as ItemInput[]),
    );
    prompt.variable("v", later);
    return step(prompt, run);
  },
  "a tool provider's ['a'].map(async …) while another provider pends": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.variable("v", later);
    prompt.tools(() => rejecting(name) as unknown as ToolSchema[]);
    return step(prompt, run);
  },
  "an item provider's ['a'].map(async …) while another provider pends": (
    name,
    run,
  ) => {
    const prompt = withList();
    prompt.variable("v", later);
    prompt.items("l", () => rejecting(name) as unknown as ItemInput[]);
    return step(prompt, run);
  },
  "a handler that leaves promises in tools, sections and variables": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "s", order: 0, text: "S" });
    prompt.on("system-prompt/assemble", (assembly) => {
      const [a, b, c] = rejecting(name, 3);
      assembly.tools.push(a as never);
      assembly.sections.push(b as never);
      assembly.variables.v = c as never;
    });
    return step(prompt, run);
  },
  "a handler that leaves a promise as a variable value": (name, run) => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "s", order: 0, text: "S" });
    prompt.on("system-prompt/assemble", (assembly) => {
      assembly.variables.v = rejecting(name, 1)[0] as never;
    });
    return step(prompt, run);
  },
  "a tool provider that returns ['a'].map(async …)": (name, run) => {
    const prompt = new SystemPrompt();
    prompt.tools(() => rejecting(name) as unknown as ToolSchema[]);
    return step(prompt, run);
  },
  "an item provider that returns ['a'].map(async …)": (name, run) => {
    const prompt = withList();
    prompt.items("l", () => rejecting(name) as unknown as ItemInput[]);
    return step(prompt, run);
  },
  "an async item provider that resolves to ['a'].map(async …)": (
    name,
    run,
  ) => {
    const prompt = withList();
    prompt.items(
      "l",
      () => Promise.resolve(rejecting(name) as unknown as ItemInput[]),
    );
    return step(prompt, run);
  },
  "a tool provider whose first tool is invalid and whose second is a rejecting promise":
    (name, run) => {
      const prompt = new SystemPrompt();
      prompt.tools(() =>
        [{ name: "" }, ...rejecting(name, 1)] as unknown as ToolSchema[]
      );
      return step(prompt, run);
    },
  "an item provider whose first item is invalid and whose second is a rejecting promise":
    (name, run) => {
      const prompt = withList();
      prompt.items(
        "l",
        () =>
          [
            { name: "a", order: "first", text: "A" },
            ...rejecting(name, 1),
          ] as unknown as ItemInput[],
      );
      return step(prompt, run);
    },
  "an item provider returning promises after a section that returned the wrong type":
    (name, run) => {
      const prompt = withList();
      prompt.section({ name: "a", order: -1, text: () => 42 as never });
      prompt.items("l", () => rejecting(name) as unknown as ItemInput[]);
      return step(prompt, run);
    },
  "a tool provider returning promises before a provider that throws": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.tools(() => rejecting(name) as unknown as ToolSchema[]);
    prompt.variable("v", () => {
      throw new Error("sync");
    });
    return step(prompt, run);
  },
  "a variable provider that returns an array of rejecting promises": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.variable("v", () => rejecting(name) as never);
    return step(prompt, run);
  },
  "a provider that rejects before another provider's wrong value": (
    name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.variable("a", () => Promise.reject(new Error(name)));
    prompt.variable("b", () => 42 as never);
    return step(prompt, run);
  },
  "a provider that rejects before a provider that throws": (name, run) => {
    const prompt = new SystemPrompt();
    prompt.variable("a", () => Promise.reject(new Error(name)));
    prompt.variable("b", () => {
      throw new Error("sync");
    });
    return step(prompt, run);
  },
  "a provider that never settles, then an already-aborted step": (
    _name,
    run,
  ) => {
    const prompt = new SystemPrompt();
    prompt.variable("v", never);
    return step(prompt, run, AbortSignal.abort(new Error("stop")));
  },
};

/** Turns of the event loop: every runtime reports unhandled rejections by then. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
}

const results: Record<string, { code: string; unhandled: string[] }> = {};
for (const [label, scenario] of Object.entries(SCENARIOS)) {
  for (const run of ["assemble", "render"] as const) {
    const name = `${run}: ${label}`;
    const code = await scenario(name, run);
    await turns(5);
    results[name] = {
      code,
      unhandled: unhandled.filter((message) =>
        message === name || message.startsWith(`${name} #`)
      ),
    };
  }
}
await turns(5);
const stray = unhandled.filter((message) =>
  !Object.keys(results).some((name) =>
    message === name || message.startsWith(`${name} #`)
  )
);
console.log(JSON.stringify({ done: true, results, stray }));
