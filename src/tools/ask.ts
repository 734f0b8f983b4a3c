/** `ask`: put a question to the user through a `ui_request` (docs/architecture.md §6.2). */
import { type Static, Type } from "@sinclair/typebox";
import type { Tool, UiAsk } from "../contracts/tool.ts";
import { describeError } from "../support/describe-error.ts";
import { errorResult, textResult } from "./tool-result.ts";

const AskParams = Type.Object({
  question: Type.String({ minLength: 1, description: "The question to show the user." }),
  options: Type.Optional(
    Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description: "Answers to choose from. Omit to let the user type a free-form answer.",
    }),
  ),
});
export type AskArgs = Static<typeof AskParams>;

export function createAskTool(): Tool<typeof AskParams> {
  return {
    name: "ask",
    description:
      "Ask the user a question and wait for the answer: a choice among options, or free text when no options " +
      "are given. Use it when you need a decision or information only the user has; the user may dismiss it.",
    parameters: AskParams,
    isReadOnly: true,
    paths: () => [],
    render: (args) => ({ kind: "text", text: args.question }),
    async execute(args, ctx) {
      const ask: UiAsk =
        args.options !== undefined
          ? { kind: "select", title: args.question, options: args.options }
          : { kind: "input", title: args.question };
      let answer: string | string[] | null;
      try {
        answer = await ctx.askUser(ask);
      } catch (error) {
        return errorResult(`Could not ask the user: ${describeError(error)}`);
      }
      if (answer === null) {
        return textResult(
          "The user dismissed the question without answering. Decide how to proceed without that answer, or ask differently.",
        );
      }
      return textResult(Array.isArray(answer) ? answer.join(", ") : answer);
    },
  };
}
