/**
 * Prints a rendered system prompt built from a small plugin set.
 *
 * @module
 */
import { renderPrompt, SystemPrompt } from "../mod.ts";

const prompt = new SystemPrompt<{ model?: string; cwd?: string }>();
const loop = prompt.scope("agent-loop");
loop.section({
  name: "agent:persona",
  order: 0,
  text: "You are a coding agent running on {{model}} in {{cwd}}.",
});
loop.variable("model", (context) => context.model);
loop.variable("cwd", (context) => context.cwd);
prompt.scope("bash").section({
  name: "tool:bash",
  order: 105,
  text: "After every command, check its exit code before you go on.",
});

const assembly = await prompt.assemble({ model: "demo-model", cwd: "/repo" });
console.log(renderPrompt(assembly));
