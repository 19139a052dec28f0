/**
 * The declared error contract (`@bank-data-sharing/wire`: error-plan.ts picks the response
 * the spec declares for a status, error-answer.ts builds the body that fits it) applied to
 * one exchange: the router's options say how bodies are formatted and checked, and where a
 * problem with them is reported.
 */
import { errorAnswer as answerFor, errorPlan as planFor, type ErrorAnswer, type ErrorItem, type ErrorPlan } from '@bank-data-sharing/wire';
import type { Exchange } from './exchange.js';

/** The plan for an error of `status` in this exchange: its operation's, else the API's. */
export function errorPlan(ex: Exchange, status: number): ErrorPlan {
  return planFor(ex.op, ex.apiResponses, status);
}

/**
 * The body of an error answer. With `validateResponses` (the default) only a body that fits
 * the declared schema is sent; where none does, RFC 9457 is, and `onError` hears about it
 * once per schema.
 */
export function errorAnswer(ex: Exchange, plan: ErrorPlan, status: number, items: readonly ErrorItem[]): ErrorAnswer {
  return answerFor(plan, status, items, {
    operationId: ex.op?.operationId,
    // Called on the options object, as the router always has (a formatter may be a method).
    formatError: (error) => ex.options.formatError?.(error),
    validate: ex.options.validateResponses !== false,
    report: (failure, issues) =>
      ex.options.onError?.(failure, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'response', ...(issues ? { issues } : {}) }),
    reported: ex.reported,
  });
}
