/**
 * The upstream JSONPath template dialect (client-go `util/jsonpath`): parse once with
 * `parseJSONPath`, evaluate with `evaluateJSONPath`, print values as upstream does.
 */
export { evaluateJSONPath, type JSONPathEvalOptions } from './evaluate.js';
export { JSONPathEvalError, JSONPathSyntaxError, type JSONPathNode, type JSONPathTemplate } from './nodes.js';
export { parseJSONPath } from './parser.js';
export { goSprint } from '../go-format.js';
export { goJSON, printJSONPathResults, printJSONPathValue } from './print.js';
export { relaxedJSONPathExpression } from './relaxed.js';
