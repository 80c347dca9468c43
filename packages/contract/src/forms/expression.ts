import type { FormValue, FormValues } from './schema.ts';

/**
 * The small expression language of showWhen and enableWhen (spec3 §5). Schemas come from the server, so the
 * expression is parsed here rather than handed to eval: field names, string, number and boolean literals,
 * null, `==` `!=` (`===` `!==` alike), `<` `<=` `>` `>=`, `!`, `&&`, `||` and parentheses.
 */
type Token =
  | { kind: 'value'; value: FormValue | undefined }
  | { kind: 'name'; name: string }
  | { kind: 'op'; op: string };

class ExpressionError extends Error {}

const OPERATORS = ['===', '!==', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '(', ')', '-'];
const KEYWORDS: Record<string, FormValue | undefined> = {
  true: true,
  false: false,
  null: null,
  undefined: undefined,
};

const tokenise = (text: string): Token[] => {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === "'" || char === '"') {
      let value = '';
      at++;
      while (at < text.length && text.charAt(at) !== char) {
        if (text.charAt(at) === '\\') at++;
        if (at >= text.length) break;
        value += text.charAt(at++);
      }
      if (at >= text.length) throw new ExpressionError('unterminated string');
      at++;
      tokens.push({ kind: 'value', value });
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(text.slice(at));
    if (number) {
      tokens.push({ kind: 'value', value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_$][\w$.]*/.exec(text.slice(at));
    if (name) {
      const word = name[0];
      tokens.push(word in KEYWORDS ? { kind: 'value', value: KEYWORDS[word] } : { kind: 'name', name: word });
      at += word.length;
      continue;
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, at));
    if (!op) throw new ExpressionError(`unexpected '${char}'`);
    tokens.push({ kind: 'op', op });
    at += op.length;
  }
  return tokens;
};

type Operand = FormValue | undefined;

/** The falsy results of spec3 §5 ('false', null, empty and false), used for `!`, `&&`, `||` and the result. */
export const expressionTruthy = (value: Operand) =>
  !(
    value === false ||
    value === null ||
    value === undefined ||
    value === '' ||
    value === 'false' ||
    (Array.isArray(value) && value.length === 0)
  );

/** Form values arrive as strings or numbers alike, so equality compares their text. */
const looselyEqual = (left: Operand, right: Operand) => {
  if (left === null || left === undefined || right === null || right === undefined)
    return (left ?? null) === (right ?? null);
  return String(left) === String(right);
};

const compare = (op: string, left: Operand, right: Operand) => {
  const a = Number(left);
  const b = Number(right);
  if (Number.isNaN(a) || Number.isNaN(b) || left === null || right === null) return false;
  if (op === '<') return a < b;
  if (op === '<=') return a <= b;
  if (op === '>') return a > b;
  return a >= b;
};

const lookUp = (values: FormValues, name: string): Operand => {
  if (name in values) return values[name];
  const bare = name.replace(/^(values|model|form)\./, '');
  return bare in values ? values[bare] : undefined;
};

const parse = (tokens: Token[], values: FormValues): Operand => {
  let at = 0;
  const peekOp = () => {
    const token = tokens[at];
    return token?.kind === 'op' ? token.op : undefined;
  };
  const or = (): Operand => {
    let left = and();
    while (peekOp() === '||') {
      at++;
      const right = and();
      left = expressionTruthy(left) ? left : right;
    }
    return left;
  };
  const and = (): Operand => {
    let left = equality();
    while (peekOp() === '&&') {
      at++;
      const right = equality();
      left = expressionTruthy(left) ? right : left;
    }
    return left;
  };
  const equality = (): Operand => {
    let left = relation();
    for (let op = peekOp(); op === '==' || op === '!=' || op === '===' || op === '!=='; op = peekOp()) {
      at++;
      const equal = looselyEqual(left, relation());
      left = op.startsWith('=') ? equal : !equal;
    }
    return left;
  };
  const relation = (): Operand => {
    let left = unary();
    for (let op = peekOp(); op === '<' || op === '<=' || op === '>' || op === '>='; op = peekOp()) {
      at++;
      left = compare(op, left, unary());
    }
    return left;
  };
  const unary = (): Operand => {
    if (peekOp() === '!') {
      at++;
      return !expressionTruthy(unary());
    }
    if (peekOp() === '-') {
      at++;
      const operand = unary();
      if (typeof operand !== 'number') throw new ExpressionError('minus needs a number');
      return -operand;
    }
    return primary();
  };
  const primary = (): Operand => {
    const token = tokens[at++];
    if (!token) throw new ExpressionError('unexpected end');
    if (token.kind === 'value') return token.value;
    if (token.kind === 'name') return lookUp(values, token.name);
    if (token.op !== '(') throw new ExpressionError(`unexpected '${token.op}'`);
    const inner = or();
    if (tokens[at]?.kind !== 'op' || peekOp() !== ')') throw new ExpressionError("missing ')'");
    at++;
    return inner;
  };
  const result = or();
  if (at !== tokens.length) throw new ExpressionError('unexpected text after the expression');
  return result;
};

/** Evaluates an expression against the form values; a malformed one gives `{ ok: false }`. */
export const evaluateExpression = (
  expression: string,
  values: FormValues,
): { ok: true; value: Operand } | { ok: false; error: string } => {
  try {
    const tokens = tokenise(expression);
    if (tokens.length === 0) return { ok: false, error: 'empty expression' };
    return { ok: true, value: parse(tokens, values) };
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, error: error.message };
    throw error;
  }
};

/**
 * spec3 §5: showWhen may reference other fields' values; a malformed expression leaves the field shown; the
 * results 'false', null, empty and false hide it. No expression shows the field.
 */
export const evaluateShowWhen = (expression: string | undefined, values: FormValues): boolean => {
  if (expression === undefined || expression.trim() === '') return true;
  const result = evaluateExpression(expression, values);
  return result.ok ? expressionTruthy(result.value) : true;
};

/** enableWhen reads like showWhen: a malformed expression leaves the field enabled. */
export const evaluateEnableWhen = evaluateShowWhen;
